package io.kubeboot.sample;

import io.kubeboot.operator.test.TestNamespace;

/**
 * Command-line properties that make the sample fit for tests: it watches the test's
 * namespace only, elects its leader there with short durations, and probes buckets every
 * second.
 */
final class SampleArguments {

	private SampleArguments() {
	}

	static String[] replica(TestNamespace namespace, String identity) {
		return new String[] { "--operator.namespace=" + namespace, "--operator.leader-election.enabled=true",
				"--operator.leader-election.namespace=" + namespace, "--operator.leader-election.identity=" + identity,
				"--operator.leader-election.lease-duration=3s", "--operator.leader-election.renew-deadline=2s",
				"--operator.leader-election.retry-period=500ms", "--sample.buckets.probe-interval=1s",
				"--sample.buckets.probe-timeout=1s" };
	}

}
