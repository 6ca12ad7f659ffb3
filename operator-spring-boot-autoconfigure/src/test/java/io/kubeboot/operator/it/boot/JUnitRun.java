package io.kubeboot.operator.it.boot;

import java.util.Arrays;

import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

/**
 * A test run in a JVM of its own, as Maven's Surefire runs one: each argument is one
 * execution of the JUnit Platform (comma-separated test class names), all in one launcher
 * session. It prints what each execution found, passed and failed, then
 * {@value #FINISHED}, and exits with status 0: a JVM halted by a test never prints it.
 */
public final class JUnitRun {

	static final String FINISHED = "JUnitRun finished";

	private JUnitRun() {
	}

	public static void main(String[] args) {
		try (LauncherSession session = LauncherFactory.openSession()) {
			Launcher launcher = session.getLauncher();
			for (int i = 0; i < args.length; i++) {
				LauncherDiscoveryRequestBuilder request = LauncherDiscoveryRequestBuilder.request();
				Arrays.stream(args[i].split(",")).forEach((name) -> request.selectors(selectClass(name)));
				SummaryGeneratingListener listener = new SummaryGeneratingListener();
				LauncherDiscoveryRequest discovery = request.build();
				launcher.execute(discovery, listener);
				TestExecutionSummary summary = listener.getSummary();
				summary.getFailures()
					.forEach((failure) -> System.out.println("JUnitRun failure: "
							+ failure.getTestIdentifier().getDisplayName() + ": " + failure.getException()));
				System.out
					.println("JUnitRun execution " + (i + 1) + ": found=" + summary.getTestsFoundCount() + " succeeded="
							+ summary.getTestsSucceededCount() + " failed=" + summary.getTotalFailureCount());
			}
		}
		System.out.println(FINISHED);
		System.exit(0);
	}

}
