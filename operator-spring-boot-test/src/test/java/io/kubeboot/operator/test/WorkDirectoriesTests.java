package io.kubeboot.operator.test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

class WorkDirectoriesTests {

	@TempDir
	Path tmp;

	@Test
	void deletesTheWorkDirectoryOfAnEndedJvmOnly() throws Exception {
		Path ended = Files.createDirectory(this.tmp.resolve(WorkDirectories.PREFIX + "ended"));
		Files.writeString(ended.resolve("etcd.log"), "log", StandardCharsets.UTF_8);
		Files.writeString(ended.resolve(WorkDirectories.OWNER_FILE), endedPid() + " 2020-01-01T00:00:00Z\n",
				StandardCharsets.UTF_8);
		Path live = Files.createDirectory(this.tmp.resolve(WorkDirectories.PREFIX + "live"));
		WorkDirectories.claim(live);
		Path kept = Files.createDirectory(this.tmp.resolve(WorkDirectories.PREFIX + "kept"));
		Path other = Files.createDirectory(this.tmp.resolve("other"));
		Files.writeString(other.resolve(WorkDirectories.OWNER_FILE), endedPid() + " -\n", StandardCharsets.UTF_8);

		WorkDirectories.deleteAbandoned(this.tmp);

		assertThat(ended).doesNotExist();
		assertThat(live).isDirectory();
		assertThat(kept).isDirectory();
		assertThat(other).isDirectory();
	}

	@Test
	void aPidNowUsedByAnotherProcessIsAnEndedJvm() throws Exception {
		Path reused = Files.createDirectory(this.tmp.resolve(WorkDirectories.PREFIX + "reused"));
		Files.writeString(reused.resolve(WorkDirectories.OWNER_FILE),
				ProcessHandle.current().pid() + " 2020-01-01T00:00:00Z\n", StandardCharsets.UTF_8);

		assertThat(WorkDirectories.isAbandoned(reused)).isTrue();
	}

	private static long endedPid() throws Exception {
		Process process = new ProcessBuilder("true").start();
		process.waitFor();
		return process.pid();
	}

}
