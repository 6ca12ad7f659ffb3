package io.kubeboot.operator.crd;

import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.Element;

/**
 * Where a part of a schema comes from, for checks that run once the whole schema is
 * built: the annotation, the element it is on, and that element for messages.
 *
 * @param element the field, getter or class
 * @param mirror the annotation
 * @param what the element for messages, such as {@code field 'size' of com.example.Spec}
 */
record Origin(Element element, AnnotationMirror mirror, String what) {

	/**
	 * Reports an error on the annotation, prefixed with its name and the element:
	 * {@code @ValidationRule on field 'size' of com.example.Spec: problem}.
	 * @param diagnostics where problems go
	 * @param problem what is wrong
	 */
	void error(Diagnostics diagnostics, String problem) {
		diagnostics.error(this.element, this.mirror, "@" + this.mirror.getAnnotationType().asElement().getSimpleName()
				+ " on " + this.what + ": " + problem);
	}

}
