/**
 * Internal: how the controllers read the trace context annotation. Not an API: it may
 * change in any release.
 */
@NullMarked
package io.kubeboot.operator.tracing.internal;

import org.jspecify.annotations.NullMarked;
