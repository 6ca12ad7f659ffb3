/**
 * Micrometer metrics of the operator under the exact Prometheus names and labels that
 * controller-runtime and client-go export ({@code controller_runtime_*},
 * {@code workqueue_*}, {@code leader_election_master_status},
 * {@code rest_client_requests_total}), so dashboards and alerts written for
 * controller-runtime work unchanged. Start from
 * {@link io.kubeboot.operator.micrometer.OperatorMetrics}.
 */
@NullMarked
package io.kubeboot.operator.micrometer;

import org.jspecify.annotations.NullMarked;
