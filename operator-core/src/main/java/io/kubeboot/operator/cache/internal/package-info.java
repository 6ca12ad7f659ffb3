/**
 * Internal: the informer cache behind {@link io.kubeboot.operator.cache.Cache}, its
 * watchdog, memory savings and RBAC self-check. Not an API: it may change in any release;
 * use {@link io.kubeboot.operator.cache.Cache} and
 * {@link io.kubeboot.operator.cache.Informer}.
 */
@NullMarked
package io.kubeboot.operator.cache.internal;

import org.jspecify.annotations.NullMarked;
