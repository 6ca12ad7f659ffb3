package io.kubeboot.operator.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.kubeboot.operator.autoconfigure.InvalidOperatorPropertyException.Problem;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.bind.validation.BindValidationException;
import org.springframework.boot.context.properties.bind.validation.ValidationErrors;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.boot.origin.Origin;
import org.springframework.core.Ordered;
import org.springframework.validation.FieldError;
import org.springframework.validation.ObjectError;

/**
 * Explains a start-up that failed because of {@code operator.*} properties: each one as
 * written in {@code application.yaml} ({@code operator.leader-election.renew-deadline},
 * not the Java path {@code leaderElection.renewDeadline}), with its value as written and
 * where it was set. Runs before Spring Boot's own analyzer of validation failures, which
 * would name nested properties by their Java path and drop their origins.
 */
class OperatorPropertiesFailureAnalyzer implements FailureAnalyzer, Ordered {

	static final String ACTION = "Fix the properties named above in your application's configuration; "
			+ "docs/reference/properties.md lists each one and the values it takes.";

	private static final ConfigurationPropertyName PREFIX = ConfigurationPropertyName.of("operator");

	@Override
	public @Nullable FailureAnalysis analyze(Throwable failure) {
		InvalidOperatorPropertyException invalid = findCause(failure, InvalidOperatorPropertyException.class);
		if (invalid != null) {
			return new FailureAnalysis(describe(invalid.problems()), invalid.action(), invalid);
		}
		BindValidationException validation = findCause(failure, BindValidationException.class);
		if (validation != null && PREFIX.equals(validation.getValidationErrors().getName())) {
			return new FailureAnalysis(describe(problems(validation.getValidationErrors())), ACTION, validation);
		}
		return null;
	}

	@Override
	public int getOrder() {
		return Ordered.HIGHEST_PRECEDENCE;
	}

	private static List<Problem> problems(ValidationErrors errors) {
		List<Problem> problems = new ArrayList<>();
		for (ObjectError error : errors.getAllErrors()) {
			String reason = String.valueOf(error.getDefaultMessage());
			if (error instanceof FieldError fieldError) {
				String property = fieldError.getObjectName() + "." + fieldError.getField();
				ConfigurationProperty bound = bound(errors, property);
				if (bound != null) {
					problems.add(new Problem(property, bound.getValue(), Origin.from(bound), reason));
				}
				else {
					problems.add(new Problem(property, fieldError.getRejectedValue(), Origin.from(fieldError), reason));
				}
			}
			else {
				problems.add(new Problem(error.getObjectName(), null, null, reason));
			}
		}
		return problems;
	}

	/**
	 * Returns the property as the application set it, if it did.
	 */
	private static @Nullable ConfigurationProperty bound(ValidationErrors errors, String property) {
		if (!ConfigurationPropertyName.isValid(property)) {
			return null;
		}
		ConfigurationPropertyName name = ConfigurationPropertyName.of(property);
		for (ConfigurationProperty candidate : errors.getBoundProperties()) {
			if (candidate.getName().equals(name)) {
				return candidate;
			}
		}
		return null;
	}

	static String describe(List<Problem> problems) {
		StringBuilder description = new StringBuilder("Invalid operator properties:\n");
		for (Problem problem : problems) {
			description.append("\n    Property: ").append(problem.property());
			if (problem.value() != null) {
				Object value = (problem.value() instanceof Duration duration) ? OperatorProperties.format(duration)
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
