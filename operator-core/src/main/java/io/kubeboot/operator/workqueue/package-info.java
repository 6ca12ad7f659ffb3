/**
 * The controller work queue (de-duplicating, delaying, rate-limiting) and its rate
 * limiters, with the semantics of client-go's {@code workqueue} package that
 * controller-runtime relies on.
 */
@NullMarked
package io.kubeboot.operator.workqueue;

import org.jspecify.annotations.NullMarked;
