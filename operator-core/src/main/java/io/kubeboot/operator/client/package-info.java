/**
 * Talking to the API server: derived clients with their own timeouts and connection pools
 * for watches and Lease renewals. The typed client for reads and writes will live here
 * too, as in controller-runtime's {@code client} package.
 */
@NullMarked
package io.kubeboot.operator.client;

import org.jspecify.annotations.NullMarked;
