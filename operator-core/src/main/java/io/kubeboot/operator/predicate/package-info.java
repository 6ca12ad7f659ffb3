/**
 * Event filters, as controller-runtime's {@code predicate} package: a
 * {@link io.kubeboot.operator.predicate.EventFilter} decides which creations, updates and
 * deletions of a watched kind become requests, and
 * {@link io.kubeboot.operator.predicate.EventFilters} has the common ones (generation,
 * labels, annotations changed). Event filters run on the informer's event thread.
 */
@NullMarked
package io.kubeboot.operator.predicate;

import org.jspecify.annotations.NullMarked;
