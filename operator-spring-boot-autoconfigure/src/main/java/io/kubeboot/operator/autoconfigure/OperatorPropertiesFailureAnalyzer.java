package io.kubeboot.operator.autoconfigure;

import java.time.Duration;
import java.util.List;

import io.kubeboot.operator.autoconfigure.InvalidOperatorPropertyException.Problem;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.core.Ordered;

/**
 * Explains a start-up that failed because of {@code operator.*} properties: each one as
 * written in {@code application.yaml} ({@code operator.leader-election.renew-deadline},
 * not the Java path {@code leaderElection.renewDeadline}, nor the core's setting
 * {@code renewDeadline}), with its value as written and where it was set.
 */
class OperatorPropertiesFailureAnalyzer implements FailureAnalyzer, Ordered {

	static final String ACTION = "Fix the properties named above in your application's configuration; "
			+ "docs/reference/properties.md lists each one and the values it takes.";

	@Override
	public @Nullable FailureAnalysis analyze(Throwable failure) {
		InvalidOperatorPropertyException invalid = findCause(failure, InvalidOperatorPropertyException.class);
		if (invalid != null) {
			return new FailureAnalysis(describe(invalid.problems()), invalid.action(), invalid);
		}
		return null;
	}

	@Override
	public int getOrder() {
		return Ordered.HIGHEST_PRECEDENCE;
	}

	static String describe(List<Problem> problems) {
		StringBuilder description = new StringBuilder("Invalid operator properties:\n");
		for (Problem problem : problems) {
			description.append("\n    Property: ").append(problem.property());
			if (problem.value() != null) {
				Object value = (problem.value() instanceof Duration duration) ? PropertyProblems.format(duration)
						: problem.value();
				description.append("\n    Value: \"").append(value).append('"');
			}
			if (problem.origin() != null) {
				description.append("\n    Origin: ").append(problem.origin());
			}
			description.append("\n    Reason: ").append(problem.reason()).append('\n');
		}
		return description.toString();
	}

	private static <E extends Throwable> @Nullable E findCause(Throwable failure, Class<E> type) {
		Throwable candidate = failure;
		while (candidate != null) {
			if (type.isInstance(candidate)) {
				return type.cast(candidate);
			}
			candidate = candidate.getCause();
		}
		return null;
	}

}
