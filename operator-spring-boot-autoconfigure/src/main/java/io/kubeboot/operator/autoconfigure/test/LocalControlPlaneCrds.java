package io.kubeboot.operator.autoconfigure.test;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.kubeboot.operator.test.ControlPlane;
import io.kubeboot.operator.test.CustomResourceDefinitions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.properties.bind.BindHandler;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.handler.NoUnboundElementsBindHandler;
import org.springframework.boot.context.properties.source.UnboundElementsSourceFilter;
import org.springframework.core.env.Environment;
import org.springframework.core.io.Resource;
import org.springframework.core.io.ResourceLoader;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;
import org.springframework.core.io.support.ResourcePatternResolver;
import org.springframework.util.AntPathMatcher;

/**
 * Applies the CRDs named by {@value #PROPERTY} to a local control plane, before the
 * application's manager starts: for a {@code @SpringBootTest} annotated with
 * {@code @WithControlPlane} and for {@link LocalControlPlaneConfiguration}.
 */
final class LocalControlPlaneCrds {

	static final String PROPERTY = LocalControlPlaneProperties.PREFIX + ".crd-locations";

	private static final String OPTIONAL_PREFIX = "optional:";

	private static final Logger logger = LoggerFactory.getLogger(LocalControlPlaneCrds.class);

	private LocalControlPlaneCrds() {
	}

	/**
	 * Applies the CRDs and waits until the API server serves them.
	 * @param controlPlane the control plane
	 * @param environment the application's environment, for {@value #PROPERTY}
	 * @param resourceLoader the application's resource loader
	 * @param logNone whether to log at INFO that there were none (else at DEBUG)
	 * @return the names of the CRDs applied
	 * @throws IllegalStateException if a location is blank, or one that is neither a
	 * pattern nor optional does not exist, or a file cannot be read
	 * @throws io.kubeboot.operator.test.ControlPlaneException if a file holds anything
	 * but CRDs or the API server refuses one
	 */
	static List<String> apply(ControlPlane controlPlane, Environment environment, ResourceLoader resourceLoader,
			boolean logNone) {
		List<String> locations = locations(environment);
		Map<String, Resource> resources = resolve(locations, resourceLoader);
		if (resources.isEmpty()) {
			String message = "No CustomResourceDefinitions to apply to the local control plane: none at " + PROPERTY
					+ "=" + locations;
			if (logNone) {
				logger.info(message);
			}
			else {
				logger.debug(message);
			}
			return List.of();
		}
		List<String> names = new ArrayList<>();
		resources.forEach((origin, resource) -> names
			.addAll(CustomResourceDefinitions.apply(controlPlane.adminClient(), read(resource, origin), origin)));
		logger.info("Applied CustomResourceDefinitions to the local control plane: crds={} from={}", names,
				resources.keySet());
		return names;
	}

	/**
	 * Reads {@value #PROPERTY}, failing on an unknown key under
	 * {@code operator.local-control-plane} (as the binding of the other {@code operator}
	 * properties does) or a blank location.
	 */
	private static List<String> locations(Environment environment) {
		BindHandler noUnknownKeys = new NoUnboundElementsBindHandler(BindHandler.DEFAULT,
				new UnboundElementsSourceFilter());
		List<String> locations = Binder.get(environment)
			.bind(LocalControlPlaneProperties.PREFIX, Bindable.of(LocalControlPlaneProperties.class), noUnknownKeys)
			.orElseGet(LocalControlPlaneProperties::new)
			.getCrdLocations();
		for (int i = 0; i < locations.size(); i++) {
			String location = locations.get(i);
			if (location == null || location.isBlank()) {
				throw new IllegalStateException(PROPERTY + "[" + i + "] is blank: name a location such as "
						+ "file:deploy/crd.yaml, or remove the entry");
			}
		}
		return locations;
	}

	/**
	 * Resolves the locations to the resources that exist, by a description for messages;
	 * a resource that several locations match is applied once.
	 */
	private static Map<String, Resource> resolve(List<String> locations, ResourceLoader resourceLoader) {
		ResourcePatternResolver resolver = new PathMatchingResourcePatternResolver(resourceLoader);
		AntPathMatcher matcher = new AntPathMatcher();
		Map<String, Resource> resources = new LinkedHashMap<>();
		for (String written : locations) {
			boolean optional = written.startsWith(OPTIONAL_PREFIX);
			String location = optional ? written.substring(OPTIONAL_PREFIX.length()) : written;
			if (location.startsWith(ResourcePatternResolver.CLASSPATH_ALL_URL_PREFIX) || matcher.isPattern(location)) {
				try {
					for (Resource resource : resolver.getResources(location)) {
						if (resource.exists()) {
							resources.putIfAbsent(describe(resource), resource);
						}
					}
				}
				catch (IOException ex) {
					throw new UncheckedIOException("Cannot resolve " + PROPERTY + " entry '" + written + "'", ex);
				}
				continue;
			}
			Resource resource = resolver.getResource(location);
			if (resource.exists()) {
				resources.putIfAbsent(describe(resource), resource);
			}
			else if (!optional) {
				throw new IllegalStateException(PROPERTY + " names '" + written + "', which does not exist ("
						+ describe(resource) + ", working directory " + Path.of("").toAbsolutePath()
						+ "); fix the location, or prefix it with optional: if it may be missing");
			}
		}
		return resources;
	}

	private static String describe(Resource resource) {
		try {
			if (resource.isFile()) {
				return resource.getFile().toPath().toAbsolutePath().normalize().toString();
			}
			return resource.getURL().toString();
		}
		catch (IOException ex) {
			return resource.getDescription();
		}
	}

	private static String read(Resource resource, String origin) {
		try (InputStream input = resource.getInputStream()) {
			return new String(input.readAllBytes(), StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot read " + origin + " (from " + PROPERTY + ")", ex);
		}
	}

}
