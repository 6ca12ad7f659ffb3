package io.kubeboot.operator.webhook;

import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import com.google.gson.Gson;
import com.google.gson.JsonObject;
import io.kubeboot.operator.client.internal.KindResolver;
import io.kubeboot.operator.client.internal.ModelReading;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.jspecify.annotations.Nullable;

/**
 * The versions of one custom resource and how they convert, hub and spokes as kubebuilder
 * has them: the hub is a plain model class (usually the storage version's), each spoke's
 * model class implements {@link Convertible} of the hub, and every conversion goes
 * through the hub (spoke to hub to spoke).
 *
 * <pre class="code">
 * Conversion&lt;StorageBucket&gt; conversion = Conversion.hub(StorageBucket.class)
 * 	.spokes(StorageBucketV1alpha1.class, StorageBucketV1beta1.class);
 * ConversionWebhook.register(server, conversion);
 * </pre>
 *
 * Point the CustomResourceDefinition's {@code spec.conversion} at the webhook (see
 * {@link ConversionWebhook}).
 * <p>
 * It also tests the conversions without an API server, kubebuilder's round-trip tests:
 *
 * <pre class="code">
 * assertThat(conversion.roundTrip(bucketV1alpha1)).isEqualTo(bucketV1alpha1);
 * assertThat(conversion.roundTrip(bucket, StorageBucketV1alpha1.class)).isEqualTo(bucket);
 * </pre>
 *
 * Immutable and thread-safe.
 *
 * @param <H> the model type of the hub
 */
public final class Conversion<H extends KubernetesObject> {

	private final Class<H> hub;

	private final String group;

	private final String kind;

	/** The model class of each version, the hub's first. */
	private final Map<String, Class<? extends KubernetesObject>> versions;

	private final Gson gson = ModelReading.gson(new JSON().getGson());

	private Conversion(Class<H> hub, String group, String kind,
			Map<String, Class<? extends KubernetesObject>> versions) {
		this.hub = hub;
		this.group = group;
		this.kind = kind;
		this.versions = Collections.unmodifiableMap(versions);
	}

	/**
	 * Starts describing the conversions of a custom resource by its hub.
	 * @param <H> the model type of the hub
	 * @param hub the hub's model class, a {@code @KubernetesKind} class
	 * @return the builder, to name the spokes with
	 * @throws IllegalArgumentException naming the class if it declares no kind or no API
	 * group, or is abstract
	 */
	public static <H extends KubernetesObject> Builder<H> hub(Class<H> hub) {
		Objects.requireNonNull(hub, "hub must not be null");
		KindResolver.DeclaredKind kind = KindResolver.declaredKind(hub);
		if (kind.group() == null || kind.group().isEmpty()) {
			throw new IllegalArgumentException("Hub " + hub.getSimpleName() + " (" + kind.kind()
					+ ") has no API group: conversion webhooks convert custom resources, whose model classes say "
					+ "their group with @KubernetesKind(group = ...)");
		}
		requireConcrete(hub, "Hub");
		return new Builder<>(hub, kind);
	}

	/**
	 * Converts a spoke to the hub, as the webhook does.
	 * @param <S> the spoke's model type
	 * @param spoke the object of a spoke version; not changed (unless its
	 * {@link Convertible#convertTo} changes it)
	 * @return a new hub object with the spoke's metadata
	 * @throws ConversionException if the spoke refuses the conversion
	 * @throws Exception if the spoke's conversion fails otherwise
	 * @throws IllegalArgumentException if the object is not of a spoke of this conversion
	 */
	public <S extends Convertible<H>> H toHub(S spoke) throws Exception {
		Objects.requireNonNull(spoke, "spoke must not be null");
		requireSpoke(spoke.getClass());
		return this.hub.cast(convert(spoke, this.hub));
	}

	/**
	 * Converts the hub to a spoke, as the webhook does.
	 * @param <S> the spoke's model type
	 * @param hub the hub object; not changed (unless the spoke's
	 * {@link Convertible#convertFrom} changes it)
	 * @param spokeType the spoke's model class
	 * @return a new object of the spoke, with the hub's metadata
	 * @throws ConversionException if the spoke refuses the conversion
	 * @throws Exception if the spoke's conversion fails otherwise
	 * @throws IllegalArgumentException if the class is not a spoke of this conversion
	 */
	public <S extends Convertible<H>> S fromHub(H hub, Class<S> spokeType) throws Exception {
		Objects.requireNonNull(hub, "hub must not be null");
		requireSpoke(spokeType);
		return spokeType.cast(convert(hub, spokeType));
	}

	/**
	 * Converts a spoke object to the hub and back, for tests: a lossless conversion gives
	 * back an object equal to the one given, as the API server does when it stores the
	 * object in the hub version and reads it in the spoke's.
	 * @param <S> the spoke's model type
	 * @param spoke the object of a spoke version; not changed (a copy is converted)
	 * @return a new object of the spoke's version, converted to the hub and back
	 * @throws ConversionException if a conversion is refused
	 * @throws Exception if a conversion fails otherwise
	 * @throws IllegalArgumentException if the object is not of a spoke of this conversion
	 */
	@SuppressWarnings("unchecked")
	public <S extends Convertible<H>> S roundTrip(S spoke) throws Exception {
		Objects.requireNonNull(spoke, "spoke must not be null");
		Class<S> type = (Class<S>) spoke.getClass();
		requireSpoke(type);
		return fromHub(toHub(copy(spoke, type)), type);
	}

	/**
	 * Converts a hub object to a spoke and back, for tests: the hub's fields that the
	 * spoke has no place for are lost unless the spoke keeps them (in annotations, for
	 * example).
	 * @param <S> the spoke's model type
	 * @param hub the hub object; not changed (a copy is converted)
	 * @param through the spoke's model class
	 * @return a new hub object, converted to the spoke and back
	 * @throws ConversionException if a conversion is refused
	 * @throws Exception if a conversion fails otherwise
	 * @throws IllegalArgumentException if the class is not a spoke of this conversion
	 */
	public <S extends Convertible<H>> H roundTrip(H hub, Class<S> through) throws Exception {
		Objects.requireNonNull(hub, "hub must not be null");
		return toHub(fromHub(copy(hub, this.hub), through));
	}

	@Override
	public String toString() {
		List<String> spokes = new ArrayList<>();
		this.versions.forEach((version, type) -> {
			if (type != this.hub) {
				spokes.add(version + "=" + type.getSimpleName());
			}
		});
		return "Conversion[" + this.kind + "." + this.group + ", hub " + hubVersion() + "=" + this.hub.getSimpleName()
				+ ", spokes " + String.join(", ", spokes) + "]";
	}

	/**
	 * Returns the hub's model class.
	 * @return the class
	 */
	public Class<H> hubType() {
		return this.hub;
	}

	String group() {
		return this.group;
	}

	String kind() {
		return this.kind;
	}

	String hubVersion() {
		return this.versions.keySet().iterator().next();
	}

	/** Returns the versions, the hub's first. */
	List<String> versions() {
		return List.copyOf(this.versions.keySet());
	}

	/** Returns the model class of a version, {@code null} if not one of this kind's. */
	@Nullable Class<? extends KubernetesObject> type(String version) {
		return this.versions.get(version);
	}

	Gson gson() {
		return this.gson;
	}

	/**
	 * Converts an object of one version to the model class of another, through the hub.
	 * @param source an object of one of the versions
	 * @param target the model class of one of the versions
	 * @return a new object, or the source if it is of the target class already
	 */
	@SuppressWarnings("unchecked")
	KubernetesObject convert(KubernetesObject source, Class<? extends KubernetesObject> target) throws Exception {
		if (source.getClass() == target) {
			return source;
		}
		H hub;
		if (source.getClass() == this.hub) {
			hub = this.hub.cast(source);
		}
		else {
			hub = create(this.hub, source.getMetadata());
			((Convertible<H>) source).convertTo(hub);
		}
		if (target == this.hub) {
			return hub;
		}
		KubernetesObject result = create(target, hub.getMetadata());
		((Convertible<H>) result).convertFrom(hub);
		return result;
	}

	/**
	 * Creates an object of a version: its apiVersion and kind, a copy of the metadata.
	 */
	private <T extends KubernetesObject> T create(Class<T> type, @Nullable V1ObjectMeta metadata) {
		KindResolver.DeclaredKind declared = KindResolver.declaredKind(type);
		JsonObject json = new JsonObject();
		json.addProperty("apiVersion", this.group + "/" + declared.version());
		json.addProperty("kind", this.kind);
		if (metadata != null) {
			json.add("metadata", this.gson.toJsonTree(metadata, V1ObjectMeta.class));
		}
		return this.gson.fromJson(json, type);
	}

	private <T> T copy(T object, Class<T> type) {
		return this.gson.fromJson(this.gson.toJsonTree(object, type), type);
	}

	private void requireSpoke(Class<?> type) {
		if (type == this.hub || !this.versions.containsValue(type)) {
			throw new IllegalArgumentException(type.getSimpleName() + " is not a spoke of " + this);
		}
	}

	private static void requireConcrete(Class<?> type, String role) {
		if (type.isInterface() || Modifier.isAbstract(type.getModifiers())) {
			throw new IllegalArgumentException(
					role + " " + type.getSimpleName() + " is abstract: conversions create objects of its class");
		}
	}

	/**
	 * Returns the type argument of {@link Convertible} that a class implements, resolved
	 * through its superclasses and interfaces; {@code null} if it implements it raw.
	 */
	static @Nullable Type convertibleHub(Class<?> type) {
		return convertibleHub(type, Map.of());
	}

	private static @Nullable Type convertibleHub(Class<?> type, Map<TypeVariable<?>, Type> bindings) {
		List<Type> supertypes = new ArrayList<>(List.of(type.getGenericInterfaces()));
		if (type.getGenericSuperclass() != null) {
			supertypes.add(type.getGenericSuperclass());
		}
		for (Type supertype : supertypes) {
			Class<?> raw = (supertype instanceof ParameterizedType parameterized)
					? (Class<?>) parameterized.getRawType() : (Class<?>) supertype;
			if (!Convertible.class.isAssignableFrom(raw)) {
				continue;
			}
			Map<TypeVariable<?>, Type> next = new HashMap<>();
			if (supertype instanceof ParameterizedType parameterized) {
				TypeVariable<?>[] variables = raw.getTypeParameters();
				Type[] arguments = parameterized.getActualTypeArguments();
				for (int i = 0; i < variables.length; i++) {
					Type argument = arguments[i];
					next.put(variables[i],
							(argument instanceof TypeVariable<?> variable && bindings.containsKey(variable))
									? bindings.get(variable) : argument);
				}
			}
			if (raw == Convertible.class) {
				return next.get(Convertible.class.getTypeParameters()[0]);
			}
			return convertibleHub(raw, next);
		}
		return null;
	}

	/**
	 * Names the spokes of a {@link Conversion}.
	 *
	 * @param <H> the model type of the hub
	 */
	public static final class Builder<H extends KubernetesObject> {

		private final Class<H> hub;

		private final KindResolver.DeclaredKind kind;

		private Builder(Class<H> hub, KindResolver.DeclaredKind kind) {
			this.hub = hub;
			this.kind = kind;
		}

		/**
		 * Names the spokes: the model classes of the other versions, each implementing
		 * {@link Convertible} of the hub.
		 * @param spokes the spokes' model classes
		 * @return the conversion
		 * @throws IllegalArgumentException naming the classes if there is no spoke, if a
		 * spoke does not implement {@code Convertible} of the hub, is abstract, declares
		 * another group or kind than the hub, or the version of the hub or of another
		 * spoke
		 */
		@SafeVarargs
		public final Conversion<H> spokes(Class<? extends Convertible<H>>... spokes) {
			Objects.requireNonNull(spokes, "spokes must not be null");
			String hubName = this.hub.getSimpleName();
			if (spokes.length == 0) {
				throw new IllegalArgumentException(
						"A conversion needs a spoke besides the hub " + hubName + ": name the other versions' classes");
			}
			Map<String, Class<? extends KubernetesObject>> versions = new LinkedHashMap<>();
			versions.put(this.kind.version(), this.hub);
			for (Class<? extends Convertible<H>> spoke : spokes) {
				Objects.requireNonNull(spoke, "a spoke must not be null");
				String name = spoke.getSimpleName();
				if (spoke == this.hub) {
					throw new IllegalArgumentException(
							name + " is the hub and cannot be a spoke too: name the other versions' classes");
				}
				requireConcrete(spoke, "Spoke");
				Type target = convertibleHub(spoke);
				if (!Convertible.class.isAssignableFrom(spoke) || target != this.hub) {
					String does = !Convertible.class.isAssignableFrom(spoke) ? "does not implement Convertible"
							: (target == null) ? "implements Convertible without a type argument"
									: "implements Convertible<" + target.getTypeName().replaceAll("[\\w$]+[.$]", "")
											+ ">";
					throw new IllegalArgumentException("Spoke " + name + " " + does + ": a spoke of hub " + hubName
							+ " implements Convertible<" + hubName + ">");
				}
				KindResolver.DeclaredKind declared = KindResolver.declaredKind(spoke);
				if (!this.kind.kind().equals(declared.kind()) || !this.kind.group().equals(declared.group())) {
					throw new IllegalArgumentException("Spoke " + name + " is " + declared.kind() + "."
							+ declared.group() + " but hub " + hubName + " is " + this.kind.kind() + "."
							+ this.kind.group()
							+ ": the versions of a conversion share the hub's group and kind (@KubernetesKind)");
				}
				Class<? extends KubernetesObject> other = versions.putIfAbsent(declared.version(), spoke);
				if (other != null) {
					throw new IllegalArgumentException(((other == this.hub) ? "Hub " : "Spoke ") + other.getSimpleName()
							+ " and spoke " + name + " both declare version " + declared.version() + " of "
							+ this.kind.kind() + ": each version has one model class");
				}
			}
			return new Conversion<>(this.hub, this.kind.group(), this.kind.kind(), versions);
		}

	}

}
