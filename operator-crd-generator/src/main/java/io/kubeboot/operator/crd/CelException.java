package io.kubeboot.operator.crd;

/**
 * A CEL expression that does not parse, or that names a field its schema does not have.
 */
final class CelException extends Exception {

	private static final long serialVersionUID = 1L;

	private final int position;

	/**
	 * Creates an exception.
	 * @param message what is wrong, to follow the expression ({@code names the field
	 * ...})
	 * @param position where in the expression, from 0, or -1 for the whole expression
	 */
	CelException(String message, int position) {
		super(message);
		this.position = position;
	}

	/**
	 * An expression that does not parse.
	 * @param detail what is wrong
	 * @param position where in the expression, from 0
	 * @return the exception
	 */
	static CelException syntax(String detail, int position) {
		return new CelException("does not parse: " + detail, position);
	}

	/**
	 * Where in the expression the problem is.
	 * @return the position, from 0, or -1 for the whole expression
	 */
	int position() {
		return this.position;
	}

}
