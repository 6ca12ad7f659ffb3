package io.kubeboot.operator.test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.CountDownLatch;

/**
 * Runs a throwaway control plane from the command line, for trying an operator by hand:
 * starts etcd and kube-apiserver, copies the admin kubeconfig to the path given as the
 * only argument, and runs until the process is stopped (Ctrl-C or SIGTERM), when it stops
 * both and deletes their data.
 *
 * <pre class="code">
 * java -cp ... io.kubeboot.operator.test.LocalControlPlane target/kubeconfig
 * </pre>
 */
public final class LocalControlPlane {

	private LocalControlPlane() {
	}

	/**
	 * Starts the control plane and blocks until the JVM is asked to exit.
	 * @param args the path to write the admin kubeconfig to
	 * @throws IOException if the kubeconfig cannot be written
	 * @throws InterruptedException if interrupted while running
	 */
	public static void main(String[] args) throws IOException, InterruptedException {
		if (args.length != 1) {
			System.err.println("usage: LocalControlPlane <kubeconfig path to write>");
			System.exit(2);
		}
		Path target = Path.of(args[0]).toAbsolutePath();
		ControlPlane controlPlane = ControlPlane.start();
		CountDownLatch stopped = new CountDownLatch(1);
		Runtime.getRuntime().addShutdownHook(new Thread(() -> {
			controlPlane.close();
			stopped.countDown();
		}, "local-control-plane-stop"));
		Files.createDirectories(target.getParent());
		Path temporary = target.resolveSibling(target.getFileName() + ".tmp");
		Files.copy(controlPlane.kubeconfig(), temporary, StandardCopyOption.REPLACE_EXISTING);
		Files.move(temporary, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
		System.out.println("Local control plane ready at " + controlPlane.apiServerUrl() + "; kubeconfig: " + target);
		stopped.await();
	}

}
