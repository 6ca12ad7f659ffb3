package io.kubeboot.operator.client.internal;

import java.io.File;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.List;

import io.kubeboot.operator.client.internal.KindResolver.DeclaredKind;
import io.kubernetes.client.apimachinery.GroupVersionKind;
import io.kubernetes.client.openapi.models.AuthenticationV1TokenRequest;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.EventsV1Event;
import io.kubernetes.client.openapi.models.ResourceV1ResourceClaim;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Lease;
import io.kubernetes.client.util.ModelMapper;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The kind a model class declares, known without the API server, and without loading
 * every model class of client-java.
 */
class KindResolverDeclaredKindTests {

	@Test
	void clientJavaModelClassesDeclareTheirKindByName() {
		assertThat(KindResolver.declaredKind(V1ConfigMap.class))
			.isEqualTo(new DeclaredKind(null, "v1", "ConfigMap", ""));
		assertThat(KindResolver.declaredKind(V1Lease.class)).isEqualTo(new DeclaredKind(null, "v1", "Lease", ""));
		assertThat(KindResolver.declaredKind(CoreV1Event.class)).isEqualTo(new DeclaredKind("", "v1", "Event", ""));
		assertThat(KindResolver.declaredKind(EventsV1Event.class))
			.isEqualTo(new DeclaredKind("events.k8s.io", "v1", "Event", ""));
	}

	@Test
	void theGroupsOfPrefixedKindsAreClientJavasOwn() {
		for (Class<?> type : List.of(CoreV1Event.class, EventsV1Event.class, AuthenticationV1TokenRequest.class,
				ResourceV1ResourceClaim.class)) {
			String group = ModelMapper.preBuiltGetGroupVersionKindByClass(type)
				.map(GroupVersionKind::getGroup)
				.orElseThrow();
			assertThat(KindResolver.declaredKind(type).group()).as(type.getSimpleName())
				.isEqualTo("core".equals(group) ? "" : group);
		}
	}

	@Test
	void builtInKindsAreDeclaredWithoutLoadingModelMapper() throws Exception {
		// a class loader of its own, so that what the other tests loaded does not count
		List<URL> urls = new ArrayList<>();
		for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
			urls.add(new File(entry).toURI().toURL());
		}
		try (Isolated loader = new Isolated(urls.toArray(URL[]::new))) {
			Method declaredKind = loader.loadClass(KindResolver.class.getName()).getMethod("declaredKind", Class.class);
			for (String model : List.of("V1ConfigMap", "V1Lease", "CoreV1Event", "EventsV1Event")) {
				declaredKind.invoke(null, loader.loadClass("io.kubernetes.client.openapi.models." + model));
			}
			assertThat(loader.loaded(KindResolver.class.getName())).isTrue();
			assertThat(loader.loaded(ModelMapper.class.getName())).isFalse();
		}
	}

	private static final class Isolated extends URLClassLoader {

		Isolated(URL[] urls) {
			super(urls, ClassLoader.getPlatformClassLoader());
		}

		boolean loaded(String name) {
			return findLoadedClass(name) != null;
		}

	}

}
