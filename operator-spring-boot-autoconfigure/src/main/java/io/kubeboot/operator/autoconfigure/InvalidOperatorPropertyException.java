package io.kubeboot.operator.autoconfigure;

import java.util.List;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.origin.Origin;

/**
 * Thrown at start-up when {@code operator.*} properties that bind cleanly are invalid:
 * values the core's configuration refuses (such as a renew deadline not less than the
 * lease duration), keys that are no property, or settings that do not fit the application
 * (such as {@code operator.controllers.<name>.*} naming no controller). The message names
 * each property as written in {@code application.yaml}.
 */
public class InvalidOperatorPropertyException extends IllegalStateException {

	private static final long serialVersionUID = 1L;

	private final transient List<Problem> problems;

	private final String action;

	InvalidOperatorPropertyException(String message, List<Problem> problems, String action) {
		super(message);
		this.problems = List.copyOf(problems);
		this.action = action;
	}

	/**
	 * Returns the properties at fault.
	 * @return the problems, one per property
	 */
	List<Problem> problems() {
		return this.problems;
	}

	/**
	 * Returns what to do about it.
	 * @return the action
	 */
	String action() {
		return this.action;
	}

	/**
	 * One property at fault.
	 *
	 * @param property the property, as written in {@code application.yaml}
	 * @param value its value, if known
	 * @param origin where it was set, if known
	 * @param reason what is wrong with it
	 */
	record Problem(String property, @Nullable Object value, @Nullable Origin origin, String reason) {
	}

}
