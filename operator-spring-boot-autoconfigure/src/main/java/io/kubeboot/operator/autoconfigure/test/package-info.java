/**
 * Spring test support for operators against the local control plane of
 * {@code operator-spring-boot-test}: a {@code @SpringBootTest} annotated with
 * {@link io.kubeboot.operator.test.WithControlPlane @WithControlPlane} connects to it
 * without code. Active only when spring-test and {@code operator-spring-boot-test} are on
 * the class path; Spring's test framework finds it through
 * {@code META-INF/spring.factories}.
 */
@NullMarked
package io.kubeboot.operator.autoconfigure.test;

import org.jspecify.annotations.NullMarked;
