package io.kubeboot.operator.client.internal;

import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.google.gson.Gson;
import com.google.gson.reflect.TypeToken;
import io.kubeboot.operator.client.KindNotServedException;
import io.kubeboot.operator.model.CustomResource;
import io.kubeboot.operator.model.CustomResourceList;
import io.kubeboot.operator.model.KubernetesKind;
import io.kubeboot.operator.model.PartialObjectMetadata;
import io.kubernetes.client.apimachinery.GroupVersionKind;
import io.kubernetes.client.common.KubernetesListObject;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.models.V1APIGroup;
import io.kubernetes.client.openapi.models.V1APIGroupList;
import io.kubernetes.client.openapi.models.V1APIResource;
import io.kubernetes.client.openapi.models.V1APIResourceList;
import io.kubernetes.client.openapi.models.V1GroupVersionForDiscovery;
import io.kubernetes.client.util.ModelMapper;
import okhttp3.Call;
import org.jspecify.annotations.Nullable;

/**
 * Resolves model classes to the resources the API server serves. The group, version and
 * kind come from {@link KubernetesKind}, from the name of a client-java model class
 * ({@code V1Pod}, {@code V1Lease}, {@code EventsV1Event}), or from a {@link ModelMapper}
 * registration; the plural name and scope come from the API server's discovery, which
 * also proves that the kind is served (a custom resource whose CRD is missing is not).
 * <p>
 * {@link ModelMapper} is asked last, for classes of the application only: its first use
 * loads every model class of client-java (about 2,700 classes, 0.7 s of a start-up on two
 * cores), which an operator that owns a ConfigMap or records Events would otherwise pay
 * before its first reconcile.
 * <p>
 * Thread-safe. Discovery answers are cached per group-version for the life of the
 * resolver.
 */
public final class KindResolver {

	private static final String MODEL_PACKAGE = "io.kubernetes.client.openapi.models";

	private static final Pattern MODEL_NAME = Pattern
		.compile("^([A-Z][a-z][A-Za-z]*?)?(V\\d+(?:(?:alpha|beta)\\d+)?)([A-Z]\\w*)$");

	// the groups of the client-java model classes named with a group prefix that are
	// kinds (CoreV1Event, EventsV1Event); a prefix missing here is asked of ModelMapper
	private static final Map<String, String> GROUP_PREFIXES = Map.of("Core", "", "Events", "events.k8s.io",
			"Authentication", "authentication.k8s.io", "Resource", "resource.k8s.io");

	private static final String[] AUTH = { "BearerToken" };

	private final ApiClient client;

	private final Gson answers;

	private final String server;

	/** The answers of this resolver, the empty ones of a group-version not served too. */
	private final Map<String, List<V1APIResource>> resourcesByGroupVersion = new ConcurrentHashMap<>();

	private volatile @Nullable List<String> groupVersions;

	/**
	 * The non-empty answers of this resolver and of those sharing them, tried first: an
	 * answer another resolver had before a CustomResourceDefinition was installed may
	 * lack its kind, so a kind not found in them is resolved as if nothing were shared.
	 */
	private final Map<String, List<V1APIResource>> shared;

	private final AtomicReference<@Nullable List<String>> sharedGroupVersions;

	/**
	 * Creates a resolver that asks the API server of the given client.
	 * @param client the client
	 */
	public KindResolver(ApiClient client) {
		this.client = client;
		this.answers = ModelReading.gson(client);
		this.server = client.getBasePath();
		this.shared = new ConcurrentHashMap<>();
		this.sharedGroupVersions = new AtomicReference<>();
	}

	/**
	 * Creates a resolver that shares the discovery answers of another one (of the same
	 * API server) and asks, through its own client, only for a kind neither has found: a
	 * manager's client and cache resolve each group-version once between them.
	 * @param client the client
	 * @param answers the resolver whose answers are shared
	 */
	public KindResolver(ApiClient client, KindResolver answers) {
		this.client = client;
		this.answers = ModelReading.gson(client);
		this.server = client.getBasePath();
		this.shared = answers.shared;
		this.sharedGroupVersions = answers.sharedGroupVersions;
	}

	/**
	 * A reader whose discovery answers a client built on it shares.
	 */
	public interface Source {

		/**
		 * Returns the resolver whose answers are shared.
		 * @return the resolver
		 */
		KindResolver kindResolver();

	}

	/**
	 * Returns the group, version and kind a model class declares, without asking the API
	 * server. The group is {@code null} when only the API server can tell it (a
	 * client-java model class without a group prefix, such as {@code V1Lease}).
	 * @param type the model class
	 * @return the declared kind
	 * @throws IllegalArgumentException naming the class if it declares no kind
	 */
	public static DeclaredKind declaredKind(Class<?> type) {
		if (type == PartialObjectMetadata.class) {
			throw new IllegalArgumentException(
					"PartialObjectMetadata is the metadata of any kind, not a kind: name the "
							+ "kind (such as V1Secret.class) and ask for its metadata only (Cache.metadataInformer, "
							+ "ownsMetadataOnly or watchesMetadataOnly of a controller)");
		}
		KubernetesKind annotation = type.getAnnotation(KubernetesKind.class);
		if (annotation != null) {
			return new DeclaredKind(annotation.group(), annotation.version(), annotation.kind(), annotation.plural());
		}
		Matcher matcher = MODEL_NAME.matcher(type.getSimpleName());
		if (type.getPackageName().equals(MODEL_PACKAGE) && matcher.matches()) {
			String group = null;
			if (matcher.group(1) != null) {
				group = GROUP_PREFIXES.get(matcher.group(1));
				if (group == null) {
					group = ModelMapper.preBuiltGetGroupVersionKindByClass(type)
						.map(GroupVersionKind::getGroup)
						.orElse(null);
				}
				if ("core".equals(group)) {
					group = "";
				}
			}
			return new DeclaredKind(group, matcher.group(2).toLowerCase(), matcher.group(3), "");
		}
		GroupVersionKind registered = ModelMapper.getGroupVersionKindByClass(type);
		if (registered != null) {
			return new DeclaredKind(registered.getGroup(), registered.getVersion(), registered.getKind(), "");
		}
		throw new IllegalArgumentException("Cannot tell which Kubernetes kind " + type.getName()
				+ " is: annotate it with @KubernetesKind(group = ..., version = ..., kind = ...)");
	}

	/**
	 * Resolves a model class against the API server.
	 * @param <T> the model type
	 * @param type the model class
	 * @return the resolved kind
	 * @throws KindNotServedException if the API server does not serve the kind
	 * @throws ApiException if discovery fails (for example while the API server is down)
	 * @throws IllegalArgumentException if the class declares no kind or has no list class
	 */
	public <T extends KubernetesObject> ResourceKind<T> resolve(Class<T> type) throws ApiException {
		DeclaredKind declared = declaredKind(type);
		Type listType = listType(type);
		List<ResourceKind<T>> found = sharedAnswer(type, declared, listType);
		if (found.isEmpty()) {
			List<String> candidates = (declared.group() != null)
					? List.of(groupVersion(declared.group(), declared.version()))
					: candidateGroupVersions(declared.version(), groupVersions());
			found = find(type, declared, listType, candidates, this::resources);
		}
		if (found.isEmpty()) {
			String what = declared.kind() + " (" + ((declared.group() != null)
					? groupVersion(declared.group(), declared.version()) : declared.version()) + ")";
			throw new KindNotServedException(
					"Kind " + what + " of " + type.getName() + " is not served by the API server at " + this.server
							+ ": is its CustomResourceDefinition installed?");
		}
		if (found.size() > 1) {
			throw new IllegalArgumentException("Kind " + declared.kind() + " of " + type.getName()
					+ " is served by several API groups (" + found.stream().map(ResourceKind::group).toList()
					+ "): annotate the class with @KubernetesKind to choose one");
		}
		return found.get(0);
	}

	/**
	 * Finds the kind in the answers shared with other resolvers, without asking; empty if
	 * they do not have it.
	 */
	private <T extends KubernetesObject> List<ResourceKind<T>> sharedAnswer(Class<T> type, DeclaredKind declared,
			Type listType) throws ApiException {
		List<String> all = this.sharedGroupVersions.get();
		if (declared.group() == null && all == null) {
			return List.of();
		}
		List<String> candidates = (declared.group() != null)
				? List.of(groupVersion(declared.group(), declared.version()))
				: candidateGroupVersions(declared.version(), all);
		// only where every candidate was answered, which a search from scratch would ask
		if (!this.shared.keySet().containsAll(candidates)) {
			return List.of();
		}
		return find(type, declared, listType, candidates, this.shared::get);
	}

	private <T extends KubernetesObject> List<ResourceKind<T>> find(Class<T> type, DeclaredKind declared, Type listType,
			List<String> candidates, DiscoveryAnswers answers) throws ApiException {
		List<ResourceKind<T>> found = new ArrayList<>();
		for (String groupVersion : candidates) {
			for (V1APIResource resource : answers.resources(groupVersion)) {
				if (declared.kind().equals(resource.getKind()) && !resource.getName().contains("/")
						&& (declared.plural().isEmpty() || declared.plural().equals(resource.getName()))) {
					String group = groupVersion.contains("/") ? groupVersion.substring(0, groupVersion.indexOf('/'))
							: "";
					found.add(new ResourceKind<>(type, listType, group, declared.version(), declared.kind(),
							resource.getName(), Boolean.TRUE.equals(resource.getNamespaced())));
				}
			}
			if (!found.isEmpty() && declared.group() == null && groupVersion.equals(declared.version())) {
				break; // the core group wins for unprefixed model classes
			}
		}
		return found;
	}

	@FunctionalInterface
	private interface DiscoveryAnswers {

		List<V1APIResource> resources(String groupVersion) throws ApiException;

	}

	/**
	 * Returns the type a list of the kind is read as: the
	 * {@link KubernetesKind#listType() declared} list class, else the class named like
	 * the model class with a {@code List} suffix, else {@link CustomResourceList} of the
	 * model class for a {@link CustomResource}.
	 * @param type the model class
	 * @return the list type
	 * @throws IllegalArgumentException if the class has none
	 */
	public static Type listType(Class<?> type) {
		KubernetesKind annotation = type.getAnnotation(KubernetesKind.class);
		if (annotation != null && annotation.listType() != KubernetesListObject.class) {
			return annotation.listType();
		}
		String name = type.getName() + "List";
		try {
			Class<?> listType = Class.forName(name, false, type.getClassLoader());
			if (KubernetesListObject.class.isAssignableFrom(listType)) {
				return listType;
			}
		}
		catch (ClassNotFoundException ex) {
			// a custom resource needs none; other classes are reported below
		}
		if (CustomResource.class.isAssignableFrom(type)) {
			return TypeToken.getParameterized(CustomResourceList.class, type).getType();
		}
		throw new IllegalArgumentException("No list class for " + type.getName() + ": extend CustomResource, create "
				+ name + " implementing KubernetesListObject, or name it with @KubernetesKind(listType = ...)");
	}

	private static String groupVersion(String group, String version) {
		return group.isEmpty() ? version : group + "/" + version;
	}

	private List<String> groupVersions() throws ApiException {
		List<String> all = this.groupVersions;
		if (all == null) {
			all = new ArrayList<>();
			V1APIGroupList groups = discover("/apis", V1APIGroupList.class);
			for (V1APIGroup group : (groups != null) ? groups.getGroups() : List.<V1APIGroup>of()) {
				for (V1GroupVersionForDiscovery groupVersion : group.getVersions()) {
					all.add(groupVersion.getGroupVersion());
				}
			}
			this.groupVersions = all;
			this.sharedGroupVersions.set(all);
		}
		return all;
	}

	/** Asks a discovery path, read as the client's answers are ({@link Answers}). */
	private <T> @Nullable T discover(String path, Class<T> type) throws ApiException {
		Map<String, String> headers = new HashMap<>(Map.of("Accept", "application/json"));
		Call call = this.client.buildCall(null, path, "GET", new ArrayList<>(), new ArrayList<>(), null, headers,
				new HashMap<>(), new HashMap<>(), AUTH, null);
		return Answers.<T>execute("GET " + path, this.answers, call, type).data();
	}

	private static List<String> candidateGroupVersions(String version, List<String> all) {
		List<String> candidates = new ArrayList<>();
		candidates.add(version);
		all.stream().filter((groupVersion) -> groupVersion.endsWith("/" + version)).forEach(candidates::add);
		return candidates;
	}

	private List<V1APIResource> resources(String groupVersion) throws ApiException {
		List<V1APIResource> cached = this.resourcesByGroupVersion.get(groupVersion);
		if (cached != null) {
			return cached;
		}
		String path = groupVersion.contains("/") ? "/apis/" + groupVersion : "/api/" + groupVersion;
		List<V1APIResource> resources;
		try {
			V1APIResourceList list = discover(path, V1APIResourceList.class);
			resources = (list != null) ? list.getResources() : List.of();
		}
		catch (ApiException ex) {
			if (ex.getCode() != 404) {
				throw ex;
			}
			resources = List.of();
		}
		this.resourcesByGroupVersion.put(groupVersion, resources);
		if (!resources.isEmpty()) {
			this.shared.put(groupVersion, resources);
		}
		return resources;
	}

	/**
	 * A kind as a model class declares it.
	 *
	 * @param group the API group, or {@code null} when only discovery can tell
	 * @param version the API version
	 * @param kind the kind
	 * @param plural the plural resource name, or empty when only discovery can tell
	 */
	public record DeclaredKind(@Nullable String group, String version, String kind, String plural) {
	}

}
