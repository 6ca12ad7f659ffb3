/**
 * What a reconciler is: a function from a {@link io.kubeboot.operator.reconcile.Request}
 * (namespace and name of one object) to a {@link io.kubeboot.operator.reconcile.Result}.
 * The controller decides from the result or the exception when the object is reconciled
 * again.
 */
@NullMarked
package io.kubeboot.operator.reconcile;

import org.jspecify.annotations.NullMarked;
