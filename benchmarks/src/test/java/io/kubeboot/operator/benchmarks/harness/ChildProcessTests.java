package io.kubeboot.operator.benchmarks.harness;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

class ChildProcessTests {

	@Test
	void anEventStillBeingReadWhenTheProcessExitedIsDelivered(@TempDir Path workDir) throws Exception {
		// the shell writes thousands of other events, the awaited one last, and exits
		// at once: the reader is still busy with the others (each wakes the waiting
		// thread) when the process is seen gone
		try (ChildProcess child = ChildProcess.start("late-line",
				List.of("sh", "-c", "yes 'BENCH noise 1' | head -n 5000; echo 'BENCH reconciles 42'"), Map.of(),
				workDir)) {
			assertThat(child.await("reconciles", Duration.ofSeconds(30))).containsExactly("42");
		}
	}

	@Test
	void askingAgainAfterTheProcessExitedAnswersWithItsLastAnswer(@TempDir Path workDir) throws Exception {
		// as an operator that finished reports on exit, once: the first ask takes it
		try (ChildProcess child = ChildProcess.start("exited", List.of("sh", "-c", "echo 'BENCH reconciles 100 7'"),
				Map.of(), workDir)) {
			child.awaitExit();
			assertThat(child.ask("reconciles", Duration.ofSeconds(30))).containsExactly("100", "7");
			assertThat(child.ask("reconciles", Duration.ofSeconds(30))).containsExactly("100", "7");
		}
	}

	@Test
	void anEventNeverWrittenFailsOnceTheOutputEndedNamingTheExitStatus(@TempDir Path workDir) throws Exception {
		try (ChildProcess child = ChildProcess.start("no-line", List.of("sh", "-c", "echo 'BENCH latency 7'; exit 3"),
				Map.of(), workDir)) {
			assertThatIllegalStateException().isThrownBy(() -> child.await("reconciles", Duration.ofSeconds(30)))
				.withMessageStartingWith("no-line exited with status 3 before reporting 'reconciles'");
		}
	}

}
