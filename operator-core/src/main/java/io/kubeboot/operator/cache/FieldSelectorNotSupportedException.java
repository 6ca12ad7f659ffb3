package io.kubeboot.operator.cache;

import java.util.List;

/**
 * Thrown at start-up when the API server refuses an informer's field selector: it
 * supports selecting a kind only by some fields (every kind by {@code metadata.name} and
 * {@code metadata.namespace}, a custom resource by the fields its
 * CustomResourceDefinition declares in {@code selectableFields}, a built-in kind by the
 * few fields the API server supports for it), and answers a list by any other with
 * {@code 400 Bad Request: field label not supported: spec.foo}. The message names the
 * field selector, the kind, who asked for the informer (the manager's runnables, such as
 * {@code controller-widget}) and the API server's answer.
 */
public class FieldSelectorNotSupportedException extends IllegalStateException {

	private static final long serialVersionUID = 1L;

	private final transient InformerKey informer;

	private final String kind;

	private final String answer;

	private final List<String> users;

	/**
	 * Creates an exception.
	 * @param informer the informer whose list was refused
	 * @param kind the kind as the API server serves it, such as
	 * {@code Widget (example.com/v1)}
	 * @param answer the API server's answer, such as
	 * {@code 400 Bad Request: field label not supported: spec.foo}
	 */
	public FieldSelectorNotSupportedException(InformerKey informer, String kind, String answer) {
		this(informer, kind, answer, List.of());
	}

	private FieldSelectorNotSupportedException(InformerKey informer, String kind, String answer, List<String> users) {
		super(message(informer, kind, answer, users));
		this.informer = informer;
		this.kind = kind;
		this.answer = answer;
		this.users = List.copyOf(users);
	}

	private static String message(InformerKey informer, String kind, String answer, List<String> users) {
		return "The API server does not support the field selector '" + informer.fieldSelector() + "' of " + kind
				+ ((!users.isEmpty()) ? ", asked for by " + String.join(", ", users) : "") + " (informer " + informer
				+ "): " + answer + ". A custom resource can be selected by metadata.name, metadata.namespace and "
				+ "the fields its CustomResourceDefinition declares in selectableFields; a built-in kind by "
				+ "metadata.name, metadata.namespace and the fields the API server supports for it";
	}

	/**
	 * Returns the same failure, naming who asked for the informer.
	 * @param users who asked for it, such as {@code controller-widget}
	 * @return a new exception, or this one if there is nobody to name
	 */
	public FieldSelectorNotSupportedException withUsers(List<String> users) {
		if (users.isEmpty()) {
			return this;
		}
		FieldSelectorNotSupportedException named = new FieldSelectorNotSupportedException(this.informer, this.kind,
				this.answer, users);
		named.initCause(this);
		return named;
	}

	/**
	 * Returns the informer whose list the API server refused.
	 * @return its key, with the field selector
	 */
	public InformerKey informer() {
		return this.informer;
	}

	/**
	 * Returns who asked for the informer, if known.
	 * @return the names of the manager's runnables that use it, such as
	 * {@code controller-widget}; empty if none is known
	 */
	public List<String> users() {
		return this.users;
	}

}
