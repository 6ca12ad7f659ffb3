package ${package};

import io.kubeboot.operator.autoconfigure.test.LocalControlPlaneConfiguration;
import org.springframework.boot.SpringApplication;

/**
 * The operator against a throwaway local control plane with its CRD applied, for trying it
 * by hand: {@code mvn spring-boot:test-run}, or run this class from the IDE. The log names
 * the kubeconfig to use with {@code kubectl}.
 */
public class TestOperatorApplication {

	public static void main(String[] args) {
		SpringApplication.from(OperatorApplication::main).with(LocalControlPlaneConfiguration.class).run(args);
	}

}
