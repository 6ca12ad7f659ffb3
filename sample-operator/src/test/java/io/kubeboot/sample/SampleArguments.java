package io.kubeboot.sample;

import java.util.Arrays;

import io.kubeboot.operator.test.TestNamespace;

/**
 * Command-line properties that make the sample fit for tests: it watches the test's
 * namespace only, elects its leader there with short durations, and probes buckets every
 * second.
 */
final class SampleArguments {

	private SampleArguments() {
	}

	/**
	 * A replica that probes the tests' bucket endpoints, which are served on
	 * {@code 127.0.0.1}: with {@code sample.buckets.allow-private-endpoints=true}, which
	 * a production operator does not need unless its buckets are in the cluster's
	 * network.
	 */
	static String[] replica(TestNamespace namespace, String identity) {
		String[] replica = secureReplica(namespace, identity);
		String[] arguments = Arrays.copyOf(replica, replica.length + 1);
		arguments[replica.length] = "--sample.buckets.allow-private-endpoints=true";
		return arguments;
	}

	/**
	 * A replica with the sample's own defaults for what it probes: no loopback or private
	 * endpoint.
	 */
	static String[] secureReplica(TestNamespace namespace, String identity) {
		return new String[] { "--operator.namespace=" + namespace, "--operator.leader-election.enabled=true",
				"--operator.leader-election.namespace=" + namespace, "--operator.leader-election.identity=" + identity,
				"--operator.leader-election.lease-duration=3s", "--operator.leader-election.renew-deadline=2s",
				"--operator.leader-election.retry-period=500ms", "--sample.buckets.probe-interval=1s",
				"--sample.buckets.probe-timeout=1s" };
	}

}
