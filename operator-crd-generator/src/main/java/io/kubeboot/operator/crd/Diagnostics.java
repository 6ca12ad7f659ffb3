package io.kubeboot.operator.crd;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import javax.annotation.processing.Messager;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.Element;
import javax.tools.Diagnostic;

/**
 * Reports problems through the compiler, on the element they concern, and remembers
 * whether there were errors: an error fails the compilation, and no file is written for a
 * kind that had one. An annotation's error is printed once, even where the class it is on
 * appears in several places of a schema.
 */
final class Diagnostics {

	private final Messager messager;

	private final Set<List<Object>> printed = new HashSet<>();

	private int errors;

	Diagnostics(Messager messager) {
		this.messager = messager;
	}

	void error(Element element, String message) {
		this.errors++;
		this.messager.printMessage(Diagnostic.Kind.ERROR, message, element);
	}

	void error(Element element, AnnotationMirror annotation, String message) {
		this.errors++;
		if (this.printed.add(List.of(element, annotation, message))) {
			this.messager.printMessage(Diagnostic.Kind.ERROR, message, element, annotation);
		}
	}

	/**
	 * Reports an error that concerns no element, such as a wrong processor option.
	 * @param message the message
	 */
	void error(String message) {
		this.errors++;
		this.messager.printMessage(Diagnostic.Kind.ERROR, message);
	}

	void note(Element element, String message) {
		this.messager.printMessage(Diagnostic.Kind.NOTE, message, element);
	}

	void warning(Element element, String message) {
		this.messager.printMessage(Diagnostic.Kind.WARNING, message, element);
	}

	/**
	 * How many errors were reported so far; compare before and after a piece of work to
	 * tell whether it failed.
	 * @return the number of errors
	 */
	int errors() {
		return this.errors;
	}

}
