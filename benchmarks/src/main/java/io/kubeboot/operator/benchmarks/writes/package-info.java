/**
 * The status writes scenario's process: one write path, variant by variant, measured
 * after a warm-up, to tell what the steady state of a drain spends on HTTP, on the client
 * and on decoding the answers.
 */
package io.kubeboot.operator.benchmarks.writes;
