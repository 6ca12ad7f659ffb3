package io.kubeboot.operator.test;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs the annotated test class against the local Kubernetes control plane shared by the
 * test JVM, by registering {@link ControlPlaneExtension}.
 * <p>
 * Test constructors, lifecycle methods and test methods may then declare parameters of
 * type {@link ControlPlane}, {@link io.kubernetes.client.openapi.ApiClient} (a new client
 * for the {@value ControlPlane#ADMIN} user) and {@link TestNamespace} (a namespace
 * created for the test and deleted after it). The control plane is started on first use
 * and stopped when the test run ends.
 *
 * <pre class="code">
 * &#64;WithControlPlane
 * class MyReconcilerTests {
 *
 *     &#64;Test
 *     void reconciles(ApiClient client, TestNamespace namespace) throws Exception {
 *         new CoreV1Api(client).createNamespacedConfigMap(namespace.name(), configMap).execute();
 *     }
 *
 * }
 * </pre>
 * <p>
 * On a Spring test ({@code @SpringBootTest}), with the operator's auto-configuration on
 * the class path, the application also connects to the control plane without code: its
 * context gets a {@code KubernetesConnectionDetails} bean for the
 * {@value ControlPlane#ADMIN} user, is closed after the test class (so its operator stops
 * and releases its Lease before the control plane stops), and a lost Lease fails the test
 * instead of halting the JVM.
 * <p>
 * {@link #kubernetesVersion()} chooses the Kubernetes version; test classes that ask for
 * the same version share one control plane.
 */
@Target({ ElementType.TYPE, ElementType.ANNOTATION_TYPE })
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(ControlPlaneExtension.class)
public @interface WithControlPlane {

	/**
	 * The Kubernetes version to run against: a release such as {@code 1.34.4} or a minor
	 * such as {@code 1.34} (its newest installed patch). Empty, the default: the
	 * {@value ControlPlane#VERSION_PROPERTY} environment variable or system property,
	 * else the newest version installed.
	 * @return the version asked for, or empty
	 */
	String kubernetesVersion() default "";

}
