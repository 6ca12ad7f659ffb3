package io.kubeboot.operator.test;

/**
 * Starts a control plane and halts the JVM, skipping its shutdown hooks, as the
 * {@code exit} lost-lease policy does.
 */
public final class HaltedJvm {

	private HaltedJvm() {
	}

	public static void main(String[] args) {
		ControlPlane controlPlane = ControlPlane.start();
		System.out.println("work directory: " + controlPlane.workDir());
		Runtime.getRuntime().halt(1);
	}

}
