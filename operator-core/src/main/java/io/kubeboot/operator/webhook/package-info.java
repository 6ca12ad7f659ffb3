/**
 * Admission and conversion webhooks served by the Manager over TLS, with the serving
 * certificate of {@link io.kubeboot.operator.webhook.ServingCertificate}: PEM files
 * reloaded when they are rotated (as cert-manager writes them into a mounted Secret), or
 * a self-signed certificate for local runs and tests.
 */
@NullMarked
package io.kubeboot.operator.webhook;

import org.jspecify.annotations.NullMarked;
