package io.kubeboot.operator.maven;

/**
 * A refusal: the message tells the user what is wrong and what to do, and nothing was
 * written. The goals turn it into a build failure.
 */
class ScaffoldException extends RuntimeException {

	ScaffoldException(String message) {
		super(message);
	}

	ScaffoldException(String message, Throwable cause) {
		super(message, cause);
	}

}
