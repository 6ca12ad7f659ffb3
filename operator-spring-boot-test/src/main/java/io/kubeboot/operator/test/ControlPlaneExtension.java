package io.kubeboot.operator.test;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1NamespaceList;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.generic.GenericKubernetesApi;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext.Namespace;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.platform.commons.support.AnnotationSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * JUnit Jupiter extension that shares one {@link ControlPlane} per test JVM; usually
 * registered through {@link WithControlPlane}.
 * <p>
 * Contract:
 * <ul>
 * <li>The control plane is started lazily, on the first parameter resolution or the first
 * call of {@link #controlPlane()}, and is stopped when the test run (the JUnit engine's
 * root context) ends. The JVM shutdown hook of {@link ControlPlane} covers runs that end
 * otherwise. If starting fails, the failure is remembered and rethrown to every later
 * user, instead of retrying in every test class.</li>
 * <li>Parameters of type {@link ControlPlane}, {@link ApiClient} (a new
 * {@link ControlPlane#adminClient() admin client} per parameter) and
 * {@link TestNamespace} are resolved for constructors, lifecycle methods and test
 * methods.</li>
 * <li>A {@link TestNamespace} belongs to the extension context it was resolved in: all
 * parameters of one test method and its {@code @BeforeEach}/{@code @AfterEach} methods
 * share one namespace; a namespace resolved in a {@code @BeforeAll} method (or a
 * constructor that JUnit runs in the class context) is shared by the class. It is created
 * before it is injected and its deletion is requested asynchronously when its context
 * ends; deletion failures are logged, never reported as test failures.</li>
 * </ul>
 */
public class ControlPlaneExtension implements BeforeAllCallback, ParameterResolver {

	private static final Logger logger = LoggerFactory.getLogger(ControlPlaneExtension.class);

	private static final Namespace STORE_NAMESPACE = Namespace.create(ControlPlaneExtension.class);

	private static final String TEST_NAMESPACE_KEY = "test-namespace";

	private static final int NAME_ATTEMPTS = 5;

	private static final Object lock = new Object();

	/** The shared control planes, by the version asked for ("" for the default). */
	private static final Map<String, ControlPlane> shared = new HashMap<>();

	private static final Map<String, ControlPlaneException> startFailures = new HashMap<>();

	private static final ExecutorService deleter = Executors.newSingleThreadExecutor((runnable) -> {
		Thread thread = new Thread(runnable, "test-namespace-deleter");
		thread.setDaemon(true);
		return thread;
	});

	/**
	 * Returns the control plane shared by this JVM, starting it if needed. This is the
	 * same instance that is injected into tests, for code outside parameter injection. A
	 * Spring application under test needs no such code: annotate its
	 * {@code @SpringBootTest} with {@link WithControlPlane} (see there). When called
	 * outside a {@link WithControlPlane} test class only, the control plane is stopped by
	 * the JVM shutdown hook.
	 * @return the running shared control plane
	 * @throws ControlPlaneException if it cannot be started (also on later calls)
	 */
	public static ControlPlane controlPlane() {
		return controlPlane("");
	}

	/**
	 * Returns the control plane of the given Kubernetes version shared by this JVM,
	 * starting it if needed, as {@link WithControlPlane#kubernetesVersion()} asks for it.
	 * @param kubernetesVersion a release such as {@code 1.34.4}, a minor such as
	 * {@code 1.34}, or empty for the default version
	 * @return the running shared control plane of that version
	 * @throws ControlPlaneException if it cannot be started (also on later calls)
	 */
	public static ControlPlane controlPlane(String kubernetesVersion) {
		synchronized (lock) {
			ControlPlaneException startFailure = startFailures.get(kubernetesVersion);
			if (startFailure != null) {
				throw new ControlPlaneException(
						"The shared control plane failed to start earlier in this JVM: " + startFailure.getMessage(),
						startFailure);
			}
			ControlPlane controlPlane = shared.get(kubernetesVersion);
			if (controlPlane == null || controlPlane.isClosed()) {
				try {
					ControlPlane.Builder builder = ControlPlane.builder();
					if (!kubernetesVersion.isEmpty()) {
						builder.kubernetesVersion(kubernetesVersion);
					}
					controlPlane = builder.start();
					shared.put(kubernetesVersion, controlPlane);
				}
				catch (ControlPlaneException ex) {
					startFailures.put(kubernetesVersion, ex);
					throw ex;
				}
			}
			return controlPlane;
		}
	}

	/**
	 * The version a test class asks for through {@link WithControlPlane}, empty for the
	 * default.
	 * @param testClass the test class, or {@code null}
	 * @return the version asked for, or empty
	 */
	public static String kubernetesVersion(Class<?> testClass) {
		// a @Nested class takes its enclosing class's
		for (Class<?> type = testClass; type != null; type = type.getEnclosingClass()) {
			Optional<WithControlPlane> annotation = AnnotationSupport.findAnnotation(type, WithControlPlane.class);
			if (annotation.isPresent()) {
				return annotation.get().kubernetesVersion();
			}
		}
		return "";
	}

	private static void closeShared() {
		List<ControlPlane> closing;
		synchronized (lock) {
			closing = new ArrayList<>(shared.values());
			shared.clear();
		}
		for (ControlPlane controlPlane : closing) {
			controlPlane.close();
		}
	}

	@Override
	public void beforeAll(ExtensionContext context) {
		registerSharedCloser(context);
	}

	@Override
	public boolean supportsParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
		Class<?> type = parameterContext.getParameter().getType();
		return type == ControlPlane.class || type == ApiClient.class || type == TestNamespace.class;
	}

	@Override
	public Object resolveParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
		registerSharedCloser(extensionContext);
		Class<?> type = parameterContext.getParameter().getType();
		ControlPlane controlPlane = controlPlane(kubernetesVersion(extensionContext.getTestClass().orElse(null)));
		if (type == ControlPlane.class) {
			return controlPlane;
		}
		if (type == ApiClient.class) {
			return controlPlane.adminClient();
		}
		if (type == TestNamespace.class) {
			// keyed by context: the store is hierarchical, a class-level namespace must
			// not be handed to the test methods
			String key = TEST_NAMESPACE_KEY + ":" + extensionContext.getUniqueId();
			return extensionContext.getStore(STORE_NAMESPACE)
				.computeIfAbsent(key, (ignored) -> createNamespace(controlPlane, extensionContext),
						NamespaceResource.class)
				.namespace();
		}
		throw new ParameterResolutionException("Unsupported parameter type " + type.getName());
	}

	private static void registerSharedCloser(ExtensionContext context) {
		context.getRoot()
			.getStore(STORE_NAMESPACE)
			.computeIfAbsent(SharedControlPlaneCloser.class, (key) -> new SharedControlPlaneCloser(),
					SharedControlPlaneCloser.class);
	}

	private static NamespaceResource createNamespace(ControlPlane controlPlane, ExtensionContext context) {
		String testName = context.getTestMethod()
			.map(Method::getName)
			.orElseGet(() -> context.getTestClass().map(Class::getSimpleName).orElse(context.getDisplayName()));
		ApiClient client = controlPlane.adminClient();
		CoreV1Api api = new CoreV1Api(client);
		ApiException last = null;
		for (int attempt = 0; attempt < NAME_ATTEMPTS; attempt++) {
			String name = TestNamespace.generateName(testName);
			V1Namespace namespace = new V1Namespace()
				.metadata(new V1ObjectMeta().name(name).labels(Map.of("kubeboot.io/test-namespace", "true")));
			try {
				api.createNamespace(namespace).execute();
				return new NamespaceResource(new TestNamespace(name), client);
			}
			catch (ApiException ex) {
				last = ex;
				if (ex.getCode() != 409) {
					break;
				}
			}
		}
		throw new ParameterResolutionException("Cannot create a test namespace for " + context.getDisplayName() + ": "
				+ last.getCode() + " " + last.getResponseBody(), last);
	}

	/**
	 * Closes the shared control plane when the root extension context's store is closed.
	 * Implements both {@link AutoCloseable} (JUnit 5.13+/6) and the deprecated
	 * {@code CloseableResource} (older JUnit 5); JUnit closes it once.
	 */
	@SuppressWarnings("deprecation")
	static final class SharedControlPlaneCloser implements AutoCloseable, ExtensionContext.Store.CloseableResource {

		@Override
		public void close() {
			closeShared();
		}

	}

	/**
	 * Requests the deletion of a test namespace when its extension context ends.
	 */
	@SuppressWarnings("deprecation")
	static final class NamespaceResource implements AutoCloseable, ExtensionContext.Store.CloseableResource {

		private final TestNamespace namespace;

		private final ApiClient client;

		private boolean closed;

		NamespaceResource(TestNamespace namespace, ApiClient client) {
			this.namespace = namespace;
			this.client = client;
		}

		TestNamespace namespace() {
			return this.namespace;
		}

		@Override
		public synchronized void close() {
			if (this.closed) {
				return;
			}
			this.closed = true;
			try {
				deleter.execute(this::delete);
			}
			catch (RuntimeException ex) {
				logger.debug("Cannot schedule the deletion of test namespace {}", this.namespace, ex);
			}
		}

		private void delete() {
			try {
				this.client.setReadTimeout(10_000);
				GenericKubernetesApi<V1Namespace, V1NamespaceList> namespaces = new GenericKubernetesApi<>(
						V1Namespace.class, V1NamespaceList.class, "", "v1", "namespaces", this.client);
				int status = namespaces.delete(this.namespace.name()).getHttpStatusCode();
				logger.debug("Deletion of test namespace {} answered {}", this.namespace, status);
			}
			catch (Throwable ex) {
				logger.debug("Cannot delete test namespace {}", this.namespace, ex);
			}
		}

	}

}
