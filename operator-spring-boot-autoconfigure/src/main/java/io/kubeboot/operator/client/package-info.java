/**
 * Helpers around client-java's {@code ApiClient}.
 */
@NullMarked
package io.kubeboot.operator.client;

import org.jspecify.annotations.NullMarked;
