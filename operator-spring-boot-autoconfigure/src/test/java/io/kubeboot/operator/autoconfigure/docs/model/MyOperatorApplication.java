package io.kubeboot.operator.autoconfigure.docs.model;

/**
 * The application class of the getting-started guide.
 */
public final class MyOperatorApplication {

	private MyOperatorApplication() {
	}

	public static void main(String[] args) {
	}

}
