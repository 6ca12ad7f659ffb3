package io.kubeboot.operator.archetype;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Stops a process as an IDE's stop button or {@code kill} would, and waits for its
 * descendants to go too.
 */
final class Processes {

	private Processes() {
	}

	/**
	 * Sends SIGTERM to the process and waits until it and every descendant it had have
	 * exited; kills whatever is left after the grace period.
	 * @param process the process
	 * @param grace how long they may take
	 * @return whether everything exited by itself within the grace period
	 * @throws InterruptedException if interrupted while waiting
	 */
	static boolean stop(Process process, Duration grace) throws InterruptedException {
		List<ProcessHandle> descendants = process.descendants().toList();
		long deadline = System.nanoTime() + grace.toNanos();
		process.destroy();
		boolean exited = process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS);
		for (ProcessHandle descendant : descendants) {
			while (descendant.isAlive() && System.nanoTime() - deadline < 0) {
				Thread.sleep(100);
			}
			exited &= !descendant.isAlive();
		}
		if (!exited) {
			descendants.forEach(ProcessHandle::destroyForcibly);
			process.destroyForcibly().waitFor();
		}
		return exited;
	}

}
