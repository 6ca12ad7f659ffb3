/**
 * The operator replica of the chaos runs (with leader election, or sharded) and the
 * journal it keeps of every reconcile and change of leadership. The harness reads the
 * journals to check that no two replicas ever reconciled one object at once.
 */
package io.kubeboot.operator.benchmarks.chaos;
