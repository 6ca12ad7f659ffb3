package io.kubeboot.operator.benchmarks.harness;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

class ShardedDrainTests {

	@Test
	void theInstancesOfAClassAreReadFromAClassHistogram(@TempDir Path directory) throws Exception {
		Path histogram = directory.resolve("histogram.txt");
		Files.writeString(histogram, """
				12345:
				 num     #instances         #bytes  class name (module)
				-------------------------------------------------------
				   1:         98976       12961944  [B (java.base@17.0.15)
				  27:          3290         105280  io.kubeboot.operator.benchmarks.model.Widget
				  28:          3290         105280  io.kubeboot.operator.benchmarks.model.Widget$Spec
				Total        512345       45678901
				""");
		assertThat(ShardedDrain.instances(histogram, "io.kubeboot.operator.benchmarks.model.Widget")).isEqualTo(3290);
		assertThat(ShardedDrain.instances(histogram, "io.kubeboot.operator.benchmarks.model.Gadget")).isEqualTo(-1);
	}

}
