package org.springframework.boot.testcontainers.service.connection;

import java.lang.reflect.Field;

import org.springframework.boot.origin.Origin;
import org.springframework.core.annotation.MergedAnnotations;
import org.testcontainers.containers.Container;

/**
 * Builds the source Spring Boot's Testcontainers support makes of a
 * {@code @ServiceConnection} field, without starting the container, so that a connection
 * details factory can be tested where there is no Docker. In this package because the
 * source's constructor is package-private.
 */
public final class TestConnectionSources {

	private TestConnectionSources() {
	}

	/**
	 * Returns the connection source of a static {@code @ServiceConnection} field.
	 * @param <C> the container type
	 * @param field the field
	 * @param container the container it holds
	 * @return the source
	 */
	public static <C extends Container<?>> ContainerConnectionSource<C> of(Field field, Class<C> type, C container) {
		MergedAnnotations annotations = MergedAnnotations.from(field);
		return new ContainerConnectionSource<>("test", Origin.from(field), type, container.getDockerImageName(),
				field.getAnnotation(ServiceConnection.class), () -> container, SslBundleSource.get(annotations),
				annotations);
	}

}
