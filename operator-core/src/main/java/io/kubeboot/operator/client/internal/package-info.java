/**
 * Internal: API discovery (a model class to the resource the API server serves), the
 * derived client behind {@link io.kubeboot.operator.client.ApiClients}, access reviews
 * and error descriptions shared by the caches, leader election and events. Not an API: it
 * may change in any release; use the public packages instead.
 */
@NullMarked
package io.kubeboot.operator.client.internal;

import org.jspecify.annotations.NullMarked;
