package io.kubeboot.operator.crd;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import com.google.gson.Gson;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.kubeboot.operator.test.ControlPlane;
import io.kubeboot.operator.test.TestNamespace;
import io.kubeboot.operator.test.WithControlPlane;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.ApiextensionsV1Api;
import io.kubernetes.client.openapi.models.V1CustomResourceDefinition;
import io.kubernetes.client.openapi.models.V1CustomResourceDefinitionCondition;
import io.kubernetes.client.util.generic.KubernetesApiResponse;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesListObject;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import io.kubernetes.client.util.generic.options.ListOptions;
import okhttp3.MediaType;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The API server is the judge of a CustomResourceDefinition: a generated one, with every
 * kind of field the processor writes, is accepted as a structural schema and established;
 * objects are then checked, pruned, defaulted, printed, selected and scaled by it as the
 * model says, and its CEL rules refuse what they should; the generated admission policies
 * are taken and enforced too.
 */
@WithControlPlane
class GeneratedCrdIntegrationTests {

	private static final String GROUP = "crd-generator.kubeboot.io";

	private static final String MODEL = """
			package com.example.it.%s;

			import io.kubeboot.operator.model.*;
			import io.kubernetes.client.custom.IntOrString;
			import io.kubernetes.client.custom.Quantity;
			import jakarta.validation.constraints.*;
			import java.time.OffsetDateTime;
			import java.util.*;

			/** A gadget for the API server to check. */
			@KubernetesKind(group = "crd-generator.kubeboot.io", version = "%s", kind = "Gadget", shortNames = "gd",
					categories = "kubeboot", storage = %s)
			@PrinterColumn(name = "Size", type = PrinterColumn.Type.INTEGER, jsonPath = ".spec.size")
			@PrinterColumn(name = "Phase", jsonPath = ".status.phase")
			@PrinterColumn(name = "Ready", jsonPath = ".status.conditions[?(@.type==\\"Ready\\")].status", priority = 1)
			public class Gadget extends CustomResource<Gadget.Spec, Gadget.Status> {

				public enum Mode { FAST, SLOW }

				/** What the gadget should be. */
				public static class Spec {
					/** Its name: lower-case letters. */
					@NotBlank @Size(max = 10) @Pattern(regexp = "^[a-z]+$") private String name;
					@Min(1) @Max(10) private Integer size;
					@DecimalMin(value = "0", inclusive = false) private Double ratio;
					private Mode mode;
					@ListType(ListType.Type.SET) @Size(max = 3) private List<@Size(max = 5) String> tags;
					private Map<String, @PositiveOrZero Integer> counts;
					private Quantity memory;
					private IntOrString port;
					private OffsetDateTime when;
					@PreserveUnknownFields private Map<String, Object> settings;
					private Part part;
					private byte[] data;
					@Format("hostname") private String host;
				}

				public static class Part {
					@NotNull private String id;
					private long weight;
				}

				/** What the gadget is. */
				public static class Status {
					@AllowedValues({ "Pending", "Ready" }) private String phase;
					@ListType(value = ListType.Type.MAP, mapKeys = "type") private List<Condition> conditions;
				}

			}
			""";

	private static final String WIDGET = """
			package com.example.it.widgets;

			import io.kubeboot.operator.model.*;
			import jakarta.validation.constraints.*;

			/** A widget for the API server to check by CEL rules, default, select and scale. */
			@KubernetesKind(group = "crd-generator.kubeboot.io", version = "v1", kind = "Widget")
			@ValidationRule(value = "self.metadata.name.startsWith('w-')", message = "a widget's name starts with w-")
			@SelectableField(".spec.color")
			@Scale(labelSelectorPath = ".status.selector")
			public class Widget extends CustomResource<Widget.Spec, Widget.Status> {

				@ValidationRule(value = "self.minReplicas <= self.replicas", message = "replicas must be at least minReplicas",
						fieldPath = ".replicas")
				@ValidationRule(value = "!has(self.tier) || self.tier != 'gold' || has(self.owner)",
						message = "a gold widget needs an owner", reason = ValidationRule.Reason.FIELD_VALUE_REQUIRED,
						fieldPath = ".owner")
				public static class Spec {
					@Default("red") @Size(max = 10)
					@ValidationRule(value = "self in ['red', 'green', 'blue']", messageExpression = "'no color ' + self")
					private String color;
					@SelectableField @Size(max = 10) private String size;
					@Default("1") @Min(0) @Max(100) private Integer replicas;
					@Default("0") @Min(0) @Max(100) private Integer minReplicas;
					@ValidationRule(value = "self >= oldSelf", message = "may only grow") @Min(0) private Long revision;
					@Immutable @Size(max = 63) private String bucketName;
					@Size(max = 10) private String tier;
					@Size(max = 10) private String owner;
					@Default("{\\"path\\": \\"/healthz\\", \\"port\\": 8080}") private Probe probe;
				}

				public static class Probe {
					@NotNull @Size(max = 100) private String path;
					@Min(1) @Max(65535) private Integer port;
				}

				public static class Status {
					private Integer replicas;
					@Size(max = 1000) private String selector;
				}

			}
			""";

	private static final String LOCK = """
			package com.example.it.locks;

			import io.kubeboot.operator.model.*;
			import jakarta.validation.constraints.*;

			/** A lock for the API server to check by admission policies. */
			@KubernetesKind(group = "crd-generator.kubeboot.io", version = "v1", kind = "Lock")
			@AdmissionPolicy(name = "owned", expression = "object.spec.owner == request.userInfo.username",
					message = "only its owner may write a lock",
					messageExpression = "'a lock of ' + object.spec.owner + ' is not for ' + request.userInfo.username")
			@AdmissionPolicy(name = "held", operations = AdmissionPolicy.Operation.DELETE,
					expression = "!has(oldObject.spec.held) || !oldObject.spec.held",
					message = "a held lock cannot be deleted", reason = AdmissionPolicy.Reason.FORBIDDEN)
			public class Lock extends CustomResource<Lock.Spec, Void> {

				public static class Spec {
					@NotNull @Size(max = 63) private String owner;
					private Boolean held;
				}

			}
			""";

	private static final Duration POLICY_IN_EFFECT = Duration.ofSeconds(60);

	@TempDir
	Path directory;

	@Test
	void theApiServerEstablishesTheGeneratedDefinitionAndChecksObjectsByIt(ControlPlane controlPlane,
			TestNamespace namespace) throws Exception {
		Compilation compilation = Compilation.compile(this.directory, MODEL.formatted("v1", "v1", true),
				MODEL.formatted("v1beta1", "v1beta1", false));
		assertThat(compilation.success()).as(compilation.messages()).isTrue();
		ApiClient admin = controlPlane.adminClient();
		apply(admin, compilation.crd("gadgets." + GROUP), "gadgets." + GROUP);

		V1CustomResourceDefinition crd = new ApiextensionsV1Api(admin).readCustomResourceDefinition("gadgets." + GROUP)
			.execute();
		assertThat(crd.getStatus().getConditions()).extracting(V1CustomResourceDefinitionCondition::getType)
			.doesNotContain("NonStructuralSchema");
		assertThat(crd.getStatus().getAcceptedNames().getShortNames()).containsExactly("gd");
		assertThat(crd.getStatus().getAcceptedNames().getCategories()).containsExactly("kubeboot");
		assertThat(crd.getStatus().getStoredVersions()).containsExactly("v1");
		// two versions: the API server takes the conversion webhook's stanza (no webhook
		// serves it here, which only storing an object of the other version would need)
		assertThat(crd.getSpec().getConversion().getStrategy()).isEqualTo("Webhook");
		assertThat(crd.getSpec().getConversion().getWebhook().getClientConfig().getService().getPath())
			.isEqualTo("/convert");
		assertThat(crd.getSpec().getConversion().getWebhook().getConversionReviewVersions()).containsExactly("v1");

		DynamicKubernetesApi gadgets = new DynamicKubernetesApi(GROUP, "v1", "gadgets", admin);
		// unknown fields are pruned, except where the model preserves them; status is not
		// written with the object
		JsonObject valid = gadget("valid", """
				{"name": "photos", "size": 3, "ratio": 0.5, "mode": "FAST", "tags": ["a", "b"], "counts": {"x": 1},
				 "memory": "512Mi", "port": 8080, "when": "2024-01-01T10:00:00Z", "settings": {"any": {"thing": 1}},
				 "part": {"id": "p", "weight": 7}, "data": "aGVsbG8=", "host": "example.com", "unknown": "pruned"}
				""");
		valid.add("status", JsonParser.parseString("{\"phase\": \"Ready\"}"));
		KubernetesApiResponse<DynamicKubernetesObject> created = gadgets.create(namespaced(valid, namespace));
		assertThat(created.isSuccess()).as(String.valueOf(created.getStatus())).isTrue();
		JsonObject spec = created.getObject().getRaw().getAsJsonObject("spec");
		assertThat(spec.has("unknown")).isFalse();
		assertThat(spec.getAsJsonObject("settings").toString()).isEqualTo("{\"any\":{\"thing\":1}}");
		assertThat(spec.get("port").getAsInt()).isEqualTo(8080);
		assertThat(created.getObject().getRaw().has("status")).isFalse();

		// the status subresource takes the status, checked by the schema
		JsonObject object = created.getObject().getRaw();
		object.add("status", JsonParser
			.parseString("{\"phase\": \"Ready\", \"conditions\": [" + condition("Ready", "True", "Done") + "]}"));
		Answer statusWritten = putStatus(admin, controlPlane, object, "gadgets");
		assertThat(statusWritten.code()).as(statusWritten.body()).isEqualTo(200);
		JsonObject written = JsonParser.parseString(statusWritten.body()).getAsJsonObject();
		written.add("status", JsonParser.parseString("{\"phase\": \"Gone\"}"));
		assertThat(refusal(putStatus(admin, controlPlane, written, "gadgets")))
			.contains("status.phase: Unsupported value: \"Gone\": supported values: \"Pending\", \"Ready\"");
		written.add("status", JsonParser.parseString("{\"conditions\": [{\"type\": \"Ready\"}]}"));
		assertThat(refusal(putStatus(admin, controlPlane, written, "gadgets")))
			.contains("status.conditions[0].status: Required value")
			.contains("status.conditions[0].reason: Required value")
			.contains("status.conditions[0].lastTransitionTime: Required value");
		// the core's Condition has metav1.Condition's schema
		written.add("status", JsonParser.parseString("{\"conditions\": [" + condition("Ready", "Yes", "Done") + ", "
				+ condition("Available", "True", "not one word") + "]}"));
		assertThat(refusal(putStatus(admin, controlPlane, written, "gadgets")))
			.contains("status.conditions[0].status: Unsupported value: \"Yes\"")
			.contains("status.conditions[1].reason: Invalid value: \"not one word\"");

		// kubectl get shows the printer columns
		JsonObject table = table(admin, controlPlane, namespace);
		assertThat(table.getAsJsonArray("columnDefinitions"))
			.extracting((column) -> column.getAsJsonObject().get("name").getAsString())
			.containsExactly("Name", "Size", "Phase", "Ready");
		JsonArray cells = table.getAsJsonArray("rows").get(0).getAsJsonObject().getAsJsonArray("cells");
		assertThat(cells).extracting(JsonElement::getAsString).containsExactly("valid", "3", "Ready", "True");

		// what the schema refuses, with 422 and the field's path
		assertRefused(gadgets, namespace, "{\"size\": 3}", "spec.name: Required value");
		assertRefused(gadgets, namespace, "{\"name\": \"Photos\"}", "spec.name in body should match '^[a-z]+$'");
		assertRefused(gadgets, namespace, "{\"name\": \"\"}", "spec.name in body should be at least 1 chars long");
		assertRefused(gadgets, namespace, "{\"name\": \"abcdefghijk\"}",
				"spec.name: Too long: may not be more than 10 bytes");
		assertRefused(gadgets, namespace, "{\"name\": \"a\", \"size\": 11}",
				"spec.size in body should be less than or equal to 10");
		assertRefused(gadgets, namespace, "{\"name\": \"a\", \"ratio\": 0}",
				"spec.ratio in body should be greater than 0");
		assertRefused(gadgets, namespace, "{\"name\": \"a\", \"mode\": \"MEDIUM\"}",
				"spec.mode: Unsupported value: \"MEDIUM\": supported values: \"FAST\", \"SLOW\"");
		assertRefused(gadgets, namespace, "{\"name\": \"a\", \"tags\": [\"toolong\"]}",
				"spec.tags[0]: Too long: may not be more than 5 bytes");
		assertRefused(gadgets, namespace, "{\"name\": \"a\", \"counts\": {\"x\": -1}}",
				"spec.counts.x in body should be greater than or equal to 0");
		assertRefused(gadgets, namespace, "{\"name\": \"a\", \"memory\": \"lots\"}",
				"spec.memory in body should match");
		assertRefused(gadgets, namespace, "{\"name\": \"a\", \"port\": true}", "spec.port");
		assertRefused(gadgets, namespace, "{\"name\": \"a\", \"part\": {\"weight\": 1}}",
				"spec.part.id: Required value");
		assertRefused(gadgets, namespace, "{\"name\": \"a\", \"host\": \"not a host\"}",
				"spec.host in body must be of type hostname");
		assertRefused(gadgets, namespace, "{\"name\": \"a\", \"when\": \"yesterday\"}",
				"spec.when in body must be of type date-time");
		KubernetesApiResponse<DynamicKubernetesObject> withoutSpec = gadgets
			.create(namespaced(gadget("nospec", null), namespace));
		assertThat(withoutSpec.getHttpStatusCode()).isEqualTo(422);
		assertThat(withoutSpec.getStatus().getMessage()).contains("spec: Required value");

		// the other version is served with its own schema
		JsonObject betaGadget = gadget("beta", "{\"name\": \"Beta\"}");
		betaGadget.addProperty("apiVersion", GROUP + "/v1beta1");
		KubernetesApiResponse<DynamicKubernetesObject> beta = new DynamicKubernetesApi(GROUP, "v1beta1", "gadgets",
				admin)
			.create(namespaced(betaGadget, namespace));
		assertThat(beta.getHttpStatusCode()).isEqualTo(422);
		assertThat(beta.getStatus().getMessage()).contains("spec.name in body should match '^[a-z]+$'");
	}

	@Test
	void theApiServerEnforcesTheRulesAndDefaultsAndServesSelectableFieldsAndScale(ControlPlane controlPlane,
			TestNamespace namespace) throws Exception {
		Compilation compilation = Compilation.compile(this.directory, WIDGET);
		assertThat(compilation.success()).as(compilation.messages()).isTrue();
		ApiClient admin = controlPlane.adminClient();
		apply(admin, compilation.crd("widgets." + GROUP), "widgets." + GROUP);
		DynamicKubernetesApi widgets = new DynamicKubernetesApi(GROUP, "v1", "widgets", admin);

		// a valid widget is taken, with the defaults written into what it leaves out
		KubernetesApiResponse<DynamicKubernetesObject> created = widgets.create(namespaced(
				widget("w-valid",
						"{\"color\": \"blue\", \"size\": \"large\", \"revision\": 1, \"bucketName\": \"photos\"}"),
				namespace));
		assertThat(created.isSuccess()).as(String.valueOf(created.getStatus())).isTrue();
		JsonObject spec = created.getObject().getRaw().getAsJsonObject("spec");
		assertThat(spec.get("replicas").getAsInt()).isEqualTo(1);
		assertThat(spec.get("minReplicas").getAsInt()).isEqualTo(0);
		assertThat(spec.getAsJsonObject("probe").toString()).isEqualTo("{\"path\":\"/healthz\",\"port\":8080}");
		assertThat(spec.get("color").getAsString()).isEqualTo("blue");
		KubernetesApiResponse<DynamicKubernetesObject> defaulted = widgets
			.create(namespaced(widget("w-default", "{\"size\": \"small\"}"), namespace));
		assertThat(defaulted.isSuccess()).as(String.valueOf(defaulted.getStatus())).isTrue();
		assertThat(defaulted.getObject().getRaw().getAsJsonObject("spec").get("color").getAsString()).isEqualTo("red");

		// each rule refuses what breaks it, with its message at its field path
		assertThat(refusalOf(widgets.create(namespaced(widget("bad-name", "{}"), namespace))))
			.contains("a widget's name starts with w-");
		assertThat(refusalOf(
				widgets.create(namespaced(widget("w-few", "{\"replicas\": 2, \"minReplicas\": 5}"), namespace))))
			.contains("spec.replicas: ")
			.contains("replicas must be at least minReplicas");
		assertThat(refusalOf(widgets.create(namespaced(widget("w-gold", "{\"tier\": \"gold\"}"), namespace))))
			.contains("spec.owner: Required value: a gold widget needs an owner");
		assertThat(refusalOf(widgets.create(namespaced(widget("w-pink", "{\"color\": \"pink\"}"), namespace))))
			.contains("spec.color: ")
			.contains("no color pink");
		KubernetesApiResponse<DynamicKubernetesObject> gold = widgets
			.create(namespaced(widget("w-gold", "{\"tier\": \"gold\", \"owner\": \"me\"}"), namespace));
		assertThat(gold.isSuccess()).as(String.valueOf(gold.getStatus())).isTrue();

		// updates that break a transition rule or change an immutable field are refused
		JsonObject current = created.getObject().getRaw();
		assertThat(refusalOf(widgets.update(withSpec(current, (changed) -> changed.addProperty("revision", 0)))))
			.contains("spec.revision: ")
			.contains("may only grow");
		assertThat(
				refusalOf(widgets.update(withSpec(current, (changed) -> changed.addProperty("bucketName", "videos")))))
			.contains("spec.bucketName: ")
			.contains("is immutable");
		assertThat(refusalOf(widgets.update(withSpec(current, (changed) -> changed.remove("bucketName")))))
			.contains("spec.bucketName: ")
			.contains("is immutable");
		KubernetesApiResponse<DynamicKubernetesObject> updated = widgets.update(withSpec(current, (changed) -> {
			changed.addProperty("revision", 2);
			changed.addProperty("color", "green");
		}));
		assertThat(updated.isSuccess()).as(String.valueOf(updated.getStatus())).isTrue();

		// a field selector on a selectable field lists only the matching widgets
		assertThat(names(widgets.list(namespace.name(), new ListOptions().fieldSelector("spec.size=large"))))
			.containsExactly("w-valid");
		assertThat(names(widgets.list(namespace.name(), new ListOptions().fieldSelector("spec.color=red"))))
			.containsExactlyInAnyOrder("w-default", "w-gold");
		KubernetesApiResponse<DynamicKubernetesListObject> notSelectable = widgets.list(namespace.name(),
				new ListOptions().fieldSelector("spec.tier=gold"));
		assertThat(notSelectable.getHttpStatusCode()).as(String.valueOf(notSelectable.getStatus())).isEqualTo(400);

		// the scale subresource reads the replicas and selector, and writes spec.replicas
		JsonObject withStatus = updated.getObject().getRaw();
		withStatus.add("status", JsonParser.parseString("{\"replicas\": 1, \"selector\": \"app=w-valid\"}"));
		Answer statusWritten = putStatus(admin, controlPlane, withStatus, "widgets");
		assertThat(statusWritten.code()).as(statusWritten.body()).isEqualTo(200);
		String scaleUrl = controlPlane.apiServerUrl() + "/apis/" + GROUP + "/v1/namespaces/" + namespace.name()
				+ "/widgets/w-valid/scale";
		Answer read = send(admin, controlPlane, new Request.Builder().url(scaleUrl));
		assertThat(read.code()).as(read.body()).isEqualTo(200);
		JsonObject scale = JsonParser.parseString(read.body()).getAsJsonObject();
		assertThat(scale.get("kind").getAsString()).isEqualTo("Scale");
		assertThat(scale.getAsJsonObject("spec").get("replicas").getAsInt()).isEqualTo(1);
		assertThat(scale.getAsJsonObject("status").get("replicas").getAsInt()).isEqualTo(1);
		assertThat(scale.getAsJsonObject("status").get("selector").getAsString()).isEqualTo("app=w-valid");
		scale.getAsJsonObject("spec").addProperty("replicas", 3);
		Answer scaled = send(admin, controlPlane, new Request.Builder().url(scaleUrl)
			.put(RequestBody.create(scale.toString(), MediaType.get("application/json"))));
		assertThat(scaled.code()).as(scaled.body()).isEqualTo(200);
		assertThat(widgets.get(namespace.name(), "w-valid")
			.getObject()
			.getRaw()
			.getAsJsonObject("spec")
			.get("replicas")
			.getAsInt()).isEqualTo(3);
	}

	@Test
	void theApiServerEnforcesTheGeneratedAdmissionPolicies(ControlPlane controlPlane, TestNamespace namespace)
			throws Exception {
		assumeTrue(controlPlane.kubernetesVersion().isAtLeast(1, 30),
				"ValidatingAdmissionPolicy is GA since Kubernetes 1.30");
		Compilation compilation = Compilation.compile(this.directory, LOCK);
		assertThat(compilation.success()).as(compilation.messages()).isTrue();
		ApiClient admin = controlPlane.adminClient();
		apply(admin, compilation.crd("locks." + GROUP), "locks." + GROUP);
		List<String> applied = applyPolicies(admin, compilation.policies("locks." + GROUP));
		assertThat(applied).containsExactly("ValidatingAdmissionPolicy owned.locks." + GROUP,
				"ValidatingAdmissionPolicyBinding owned.locks." + GROUP,
				"ValidatingAdmissionPolicy held.locks." + GROUP,
				"ValidatingAdmissionPolicyBinding held.locks." + GROUP);
		DynamicKubernetesApi locks = new DynamicKubernetesApi(GROUP, "v1", "locks", admin);
		String denied = "ValidatingAdmissionPolicy '%1$s.locks." + GROUP + "' with binding '%1$s.locks." + GROUP
				+ "' denied request: ";

		// the API server takes a moment to enforce a new binding: until it refuses a lock
		// of someone else (reason Invalid, the default: 422), each try creates one
		AtomicInteger tries = new AtomicInteger();
		await().atMost(POLICY_IN_EFFECT)
			.pollInterval(Duration.ofMillis(250))
			.until(() -> locks
				.create(namespaced(lock("early-" + tries.incrementAndGet(), "someone-else", false), namespace))
				.getHttpStatusCode() == 422);
		KubernetesApiResponse<DynamicKubernetesObject> notMine = locks
			.create(namespaced(lock("not-mine", "someone-else", false), namespace));
		assertThat(notMine.getHttpStatusCode()).as(String.valueOf(notMine.getStatus())).isEqualTo(422);
		assertThat(notMine.getStatus().getReason()).isEqualTo("Invalid");
		assertThat(notMine.getStatus().getMessage())
			.contains(denied.formatted("owned") + "a lock of someone-else is not for " + ControlPlane.ADMIN);
		KubernetesApiResponse<DynamicKubernetesObject> mine = locks
			.create(namespaced(lock("mine", ControlPlane.ADMIN, true), namespace));
		assertThat(mine.isSuccess()).as(String.valueOf(mine.getStatus())).isTrue();
		// an update is checked too
		KubernetesApiResponse<DynamicKubernetesObject> givenAway = locks
			.update(withSpec(mine.getObject().getRaw(), (spec) -> spec.addProperty("owner", "someone-else")));
		assertThat(givenAway.getHttpStatusCode()).as(String.valueOf(givenAway.getStatus())).isEqualTo(422);

		// the DELETE policy (reason Forbidden: 403), once in effect, keeps a held lock;
		// until then each try deletes a held lock of its own
		await().atMost(POLICY_IN_EFFECT).pollInterval(Duration.ofMillis(250)).until(() -> {
			String name = "held-" + tries.incrementAndGet();
			assertThat(locks.create(namespaced(lock(name, ControlPlane.ADMIN, true), namespace)).isSuccess()).isTrue();
			return locks.delete(namespace.name(), name).getHttpStatusCode() == 403;
		});
		KubernetesApiResponse<DynamicKubernetesObject> held = locks.delete(namespace.name(), "mine");
		assertThat(held.getHttpStatusCode()).as(String.valueOf(held.getStatus())).isEqualTo(403);
		assertThat(held.getStatus().getReason()).isEqualTo("Forbidden");
		assertThat(held.getStatus().getMessage()).contains(denied.formatted("held") + "a held lock cannot be deleted");
		assertThat(locks.get(namespace.name(), "mine").isSuccess()).isTrue();

		// released, it is deleted; a lock never held is deleted at once
		KubernetesApiResponse<DynamicKubernetesObject> released = locks.update(withSpec(
				locks.get(namespace.name(), "mine").getObject().getRaw(), (spec) -> spec.addProperty("held", false)));
		assertThat(released.isSuccess()).as(String.valueOf(released.getStatus())).isTrue();
		KubernetesApiResponse<DynamicKubernetesObject> deleted = locks.delete(namespace.name(), "mine");
		assertThat(deleted.isSuccess()).as(String.valueOf(deleted.getStatus())).isTrue();
		assertThat(locks.create(namespaced(lock("free", ControlPlane.ADMIN, false), namespace)).isSuccess()).isTrue();
		KubernetesApiResponse<DynamicKubernetesObject> free = locks.delete(namespace.name(), "free");
		assertThat(free.isSuccess()).as(String.valueOf(free.getStatus())).isTrue();
	}

	private static String condition(String type, String status, String reason) {
		return "{\"type\": \"%s\", \"status\": \"%s\", \"reason\": \"%s\", \"message\": \"\", ".formatted(type, status,
				reason) + "\"lastTransitionTime\": \"2026-11-29T10:00:00Z\"}";
	}

	private static void apply(ApiClient admin, String yaml, String name) {
		Map<String, Object> document = new Yaml(new SafeConstructor(new LoaderOptions())).load(yaml);
		JsonObject crd = new Gson().toJsonTree(document).getAsJsonObject();
		KubernetesApiResponse<DynamicKubernetesObject> created = new DynamicKubernetesApi("apiextensions.k8s.io", "v1",
				"customresourcedefinitions", admin)
			.create(new DynamicKubernetesObject(crd));
		assertThat(created.isSuccess()).as(String.valueOf(created.getStatus())).isTrue();
		ApiextensionsV1Api api = new ApiextensionsV1Api(admin);
		await().atMost(Duration.ofSeconds(30)).until(() -> {
			V1CustomResourceDefinition current = api.readCustomResourceDefinition(name).execute();
			return current.getStatus() != null && current.getStatus().getConditions() != null
					&& current.getStatus()
						.getConditions()
						.stream()
						.anyMatch((condition) -> "Established".equals(condition.getType())
								&& "True".equals(condition.getStatus()));
		});
	}

	/**
	 * Creates the policies and bindings of a generated file, as {@code kubectl create -f}
	 * would.
	 * @return what was created, as {@code <kind> <name>}
	 */
	private static List<String> applyPolicies(ApiClient admin, String yaml) {
		List<String> created = new ArrayList<>();
		for (Object document : new Yaml(new SafeConstructor(new LoaderOptions())).loadAll(yaml)) {
			JsonObject object = new Gson().toJsonTree(document).getAsJsonObject();
			String kind = object.get("kind").getAsString();
			String resource = kind.equals("ValidatingAdmissionPolicy") ? "validatingadmissionpolicies"
					: "validatingadmissionpolicybindings";
			KubernetesApiResponse<DynamicKubernetesObject> response = new DynamicKubernetesApi(
					"admissionregistration.k8s.io", "v1", resource, admin)
				.create(new DynamicKubernetesObject(object));
			assertThat(response.isSuccess()).as(kind + " " + response.getStatus()).isTrue();
			created.add(kind + " " + response.getObject().getMetadata().getName());
		}
		return created;
	}

	private static void assertRefused(DynamicKubernetesApi gadgets, TestNamespace namespace, String spec,
			String message) {
		String name = "refused-" + System.nanoTime();
		KubernetesApiResponse<DynamicKubernetesObject> response = gadgets
			.create(namespaced(gadget(name, spec), namespace));
		assertThat(response.getHttpStatusCode()).as(spec).isEqualTo(422);
		assertThat(response.getStatus().getMessage()).as(spec).contains(message);
	}

	private static JsonObject gadget(String name, String spec) {
		return object("Gadget", name, spec);
	}

	private static JsonObject widget(String name, String spec) {
		return object("Widget", name, spec);
	}

	private static JsonObject lock(String name, String owner, boolean held) {
		return object("Lock", name, "{\"owner\": \"%s\", \"held\": %s}".formatted(owner, held));
	}

	private static JsonObject object(String kind, String name, String spec) {
		JsonObject object = new JsonObject();
		object.addProperty("apiVersion", GROUP + "/v1");
		object.addProperty("kind", kind);
		JsonObject metadata = new JsonObject();
		metadata.addProperty("name", name);
		object.add("metadata", metadata);
		if (spec != null) {
			object.add("spec", JsonParser.parseString(spec));
		}
		return object;
	}

	/** A copy of an object whose spec is changed, for an update. */
	private static DynamicKubernetesObject withSpec(JsonObject object, Consumer<JsonObject> change) {
		JsonObject copy = object.deepCopy();
		change.accept(copy.getAsJsonObject("spec"));
		return new DynamicKubernetesObject(copy);
	}

	private static String refusalOf(KubernetesApiResponse<DynamicKubernetesObject> response) {
		assertThat(response.getHttpStatusCode()).as(String.valueOf(response.getStatus())).isEqualTo(422);
		return response.getStatus().getMessage();
	}

	private static List<String> names(KubernetesApiResponse<DynamicKubernetesListObject> response) {
		assertThat(response.isSuccess()).as(String.valueOf(response.getStatus())).isTrue();
		return response.getObject().getItems().stream().map((item) -> item.getMetadata().getName()).toList();
	}

	private static DynamicKubernetesObject namespaced(JsonObject gadget, TestNamespace namespace) {
		gadget.getAsJsonObject("metadata").addProperty("namespace", namespace.name());
		return new DynamicKubernetesObject(gadget);
	}

	/** The gadgets of the namespace as {@code kubectl get} asks for them: as a Table. */
	private static JsonObject table(ApiClient admin, ControlPlane controlPlane, TestNamespace namespace)
			throws IOException {
		Answer answer = send(admin, controlPlane, new Request.Builder()
			.url(controlPlane.apiServerUrl() + "/apis/" + GROUP + "/v1/namespaces/" + namespace.name() + "/gadgets")
			.header("Accept", "application/json;as=Table;v=v1;g=meta.k8s.io"));
		assertThat(answer.code()).as(answer.body()).isEqualTo(200);
		return JsonParser.parseString(answer.body()).getAsJsonObject();
	}

	/**
	 * Replaces an object's status, as {@code kubectl replace --subresource status} does.
	 */
	private static Answer putStatus(ApiClient admin, ControlPlane controlPlane, JsonObject object, String resource)
			throws IOException {
		JsonObject metadata = object.getAsJsonObject("metadata");
		return send(admin, controlPlane,
				new Request.Builder()
					.url(controlPlane.apiServerUrl() + "/apis/" + GROUP + "/v1/namespaces/"
							+ metadata.get("namespace").getAsString() + "/" + resource + "/"
							+ metadata.get("name").getAsString() + "/status")
					.put(RequestBody.create(object.toString(), MediaType.get("application/json"))));
	}

	private static Answer send(ApiClient admin, ControlPlane controlPlane, Request.Builder request) throws IOException {
		request.header("Authorization", "Bearer " + controlPlane.token(ControlPlane.ADMIN));
		try (Response response = admin.getHttpClient().newCall(request.build()).execute()) {
			return new Answer(response.code(), response.body().string());
		}
	}

	private static String refusal(Answer answer) {
		assertThat(answer.code()).as(answer.body()).isEqualTo(422);
		return JsonParser.parseString(answer.body()).getAsJsonObject().get("message").getAsString();
	}

	private record Answer(int code, String body) {

	}

}
