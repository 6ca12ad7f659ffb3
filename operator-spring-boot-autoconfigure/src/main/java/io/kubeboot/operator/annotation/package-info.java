/**
 * Annotations that turn Spring beans into controllers and describe custom resource model
 * classes. They live apart from the API types so that their names never clash.
 */
@NullMarked
package io.kubeboot.operator.annotation;

import org.jspecify.annotations.NullMarked;
