package io.kubeboot.operator.cache.internal;

import java.io.IOException;
import java.io.StringReader;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.google.gson.stream.JsonReader;
import io.kubeboot.operator.client.internal.ModelReading;
import io.kubernetes.client.common.KubernetesListObject;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1CustomResourceDefinition;
import io.kubernetes.client.openapi.models.V1ListMeta;
import io.kubernetes.client.util.Watch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link ObjectDecoder}: lists and watch events read object by object.
 */
class ObjectDecoderTests {

	private final JSON json = new JSON();

	private final Map<String, Gadget> cache = new ConcurrentHashMap<>();

	private final AtomicLong skipped = new AtomicLong();

	private final ObjectDecoder<Gadget> decoder = new ObjectDecoder<>(Gadget.class, "Gadget", this.json.getGson(),
			(namespace, name) -> Optional.ofNullable(this.cache.get(namespace + "/" + name)),
			this.skipped::incrementAndGet);

	private final ListAppender<ILoggingEvent> logs = new ListAppender<>();

	@BeforeEach
	void captureLogs() {
		this.logs.start();
		logger().addAppender(this.logs);
	}

	@AfterEach
	void releaseLogs() {
		logger().detachAppender(this.logs);
	}

	private static Logger logger() {
		return (Logger) LoggerFactory.getLogger(ObjectDecoder.class);
	}

	@Test
	void listSkipsAnItemThatDoesNotDecodeAndKeepsTheOthersAndTheListMetadata() throws IOException {
		KubernetesListObject list = list("""
				{"apiVersion": "test.kubeboot.io/v1", "kind": "GadgetList",
				 "metadata": {"resourceVersion": "20", "continue": "next"},
				 "items": [%s, %s, %s]}
				""".formatted(gadget("a", "ua", "10", "1"), gadget("b", "ub", "11", "\"many\""),
				gadget("c", "uc", "12", "3")));
		assertThat(list.getMetadata().getResourceVersion()).isEqualTo("20");
		assertThat(list.getMetadata().getContinue()).isEqualTo("next");
		assertThat(list.getApiVersion()).isEqualTo("test.kubeboot.io/v1");
		assertThat(list.getKind()).isEqualTo("GadgetList");
		assertThat(list.getItems()).map((item) -> item.getMetadata().getName()).containsExactly("a", "c");
		assertThat(((Gadget) list.getItems().get(1)).getSpec().getReplicas()).isEqualTo(3);
		assertThat(this.skipped).hasValue(1);
		assertThat(this.logs.list).singleElement().satisfies((event) -> {
			assertThat(event.getLevel()).isEqualTo(Level.WARN);
			assertThat(event.getFormattedMessage())
				.startsWith("Object does not decode into its model, skipped: kind=Gadget object=ns/b "
						+ "resourceVersion=11 cachedResourceVersion=none error=")
				.endsWith("error=\"NumberFormatException at path $.spec.replicas\"")
				.doesNotContain("many");
		});
	}

	@Test
	void aBuiltInObjectWithFieldsClientJavaDoesNotKnowDecodesWithTheDerivedGson() throws IOException {
		// as InformerRun builds its decoders
		ObjectDecoder<V1ConfigMap> configMaps = new ObjectDecoder<>(V1ConfigMap.class, "ConfigMap",
				ModelReading.gson(this.json.getGson()), (namespace, name) -> Optional.empty(),
				this.skipped::incrementAndGet);
		String newer = """
				{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c", "namespace": "ns", "uid": "u",
				 "resourceVersion": "5", "newerMetadata": 1}, "data": {"k": "v"}, "newerField": {"x": true}}""";
		Watch.Response<V1ConfigMap> event = configMaps.decodeEvent(event("ADDED", newer));
		assertThat(event.type).isEqualTo("ADDED");
		assertThat(event.object.getData()).containsEntry("k", "v");
		KubernetesListObject list = configMaps.decodeList(new JsonReader(new StringReader("""
				{"apiVersion": "v1", "kind": "ConfigMapList", "metadata": {"resourceVersion": "6"}, "items": [%s]}
				""".formatted(newer))));
		assertThat(list.getItems()).singleElement()
			.satisfies((item) -> assertThat(item.getMetadata().getResourceVersion()).isEqualTo("5"));
		assertThat(this.skipped).hasValue(0);
		assertThat(this.logs.list).isEmpty();
	}

	@Test
	void theWarningRepeatsNoValueOfTheObjectAndStaysOnOneLine() {
		ObjectDecoder<V1ConfigMap> configMaps = new ObjectDecoder<>(V1ConfigMap.class, "ConfigMap", this.json.getGson(),
				(namespace, name) -> Optional.empty(), this.skipped::incrementAndGet);
		// client-java's models refuse unknown fields with the whole object in the message
		configMaps.decodeEvent(event("ADDED", """
				{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c", "namespace": "ns", "uid": "u",
				 "resourceVersion": "5"}, "data": {"token": "s3cr3t"}, "type": "Opaque\\nforged: line"}"""));
		this.decoder.decodeEvent(event("MODIFIED", gadget("b", "ub", "11", "\"s3cr3t\\nforged: line\"")));
		assertThat(this.logs.list).hasSize(2).allSatisfy((event) -> {
			assertThat(event.getFormattedMessage()).doesNotContain("s3cr3t")
				.doesNotContain("forged")
				.doesNotContain("\n");
		});
		assertThat(this.logs.list.get(0).getFormattedMessage())
			.endsWith("error=\"IllegalArgumentException at path $.type (a field the model does not know)\"");
		assertThat(this.logs.list.get(1).getFormattedMessage())
			.endsWith("error=\"NumberFormatException at path $.spec.replicas\"");
	}

	@Test
	void listWithoutItemsHasNone() throws IOException {
		KubernetesListObject list = list("""
				{"kind": "GadgetList", "metadata": {"resourceVersion": "7"}, "items": null, "extra": [1, {"x": 2}]}
				""");
		assertThat(list.getItems()).isEmpty();
		assertThat(list.getMetadata().getResourceVersion()).isEqualTo("7");
	}

	@Test
	void anObjectIsReportedOncePerResourceVersion() throws IOException {
		String bad = "{\"metadata\": {}, \"items\": [%s]}".formatted(gadget("b", "ub", "11", "\"many\""));
		list(bad);
		list(bad);
		this.decoder.decodeEvent(event("MODIFIED", gadget("b", "ub", "11", "\"many\"")));
		assertThat(this.skipped).hasValue(1);
		this.decoder.decodeEvent(event("MODIFIED", gadget("b", "ub", "12", "\"lots\"")));
		assertThat(this.skipped).hasValue(2);
		assertThat(this.logs.list).hasSize(2);
		// once it decoded, the same version failing again is news
		this.decoder.decodeEvent(event("MODIFIED", gadget("b", "ub", "13", "4")));
		this.decoder.decodeEvent(event("MODIFIED", gadget("b", "ub", "12", "\"lots\"")));
		assertThat(this.skipped).hasValue(3);
	}

	@Test
	void listKeepsACopyOfTheCachedVersionOfAnObjectThatNoLongerDecodes() throws IOException {
		Gadget cached = decode(gadget("a", "ua", "10", "1"));
		this.cache.put("ns/a", cached);
		this.cache.put("ns/b", decode(gadget("b", "other-uid", "10", "1")));
		KubernetesListObject list = list("{\"metadata\": {\"resourceVersion\": \"30\"}, \"items\": [%s, %s]}"
			.formatted(gadget("a", "ua", "25", "\"many\""), gadget("b", "ub", "26", "\"many\"")));
		// b was deleted and created again under the same name: its old version is gone
		assertThat(list.getItems()).singleElement().satisfies((item) -> {
			assertThat(item).isEqualTo(cached).isNotSameAs(cached);
			assertThat(((Gadget) item).getSpec()).isNotSameAs(cached.getSpec());
		});
		assertThat(this.logs.list).map(ILoggingEvent::getFormattedMessage)
			.anySatisfy((message) -> assertThat(message).contains("object=ns/a resourceVersion=25")
				.contains("cachedResourceVersion=10"));
	}

	@Test
	void eventWhoseObjectDecodesIsDeliveredAsSent() {
		Watch.Response<Gadget> response = this.decoder.decodeEvent(event("ADDED", gadget("a", "ua", "10", "1")));
		assertThat(response.type).isEqualTo("ADDED");
		assertThat(response.object.getSpec().getReplicas()).isEqualTo(1);
		assertThat(this.skipped).hasValue(0);
	}

	@Test
	void addedOrModifiedObjectThatDoesNotDecodeBecomesABookmarkAtItsResourceVersion() {
		this.cache.put("ns/a", decode(gadget("a", "ua", "10", "1")));
		for (String type : List.of("ADDED", "MODIFIED")) {
			Watch.Response<Gadget> response = this.decoder
				.decodeEvent(event(type, gadget("a", "ua", type.equals("ADDED") ? "21" : "22", "\"many\"")));
			assertThat(response.type).isEqualTo("BOOKMARK");
			assertThat(response.object.getMetadata().getResourceVersion())
				.isEqualTo(type.equals("ADDED") ? "21" : "22");
			assertThat(response.object.getSpec()).isNull();
		}
		assertThat(this.skipped).hasValue(2);
	}

	@Test
	void deletedObjectThatDoesNotDecodeIsDeletedWithItsCachedVersionAndItsFinalMetadata() {
		this.cache.put("ns/a", decode(gadget("a", "ua", "10", "1")));
		Watch.Response<Gadget> response = this.decoder
			.decodeEvent(event("DELETED", gadget("a", "ua", "30", "\"many\"")));
		assertThat(response.type).isEqualTo("DELETED");
		assertThat(response.object.getMetadata().getName()).isEqualTo("a");
		assertThat(response.object.getMetadata().getResourceVersion()).isEqualTo("30");
		assertThat(response.object.getSpec().getReplicas()).isEqualTo(1);
		assertThat(this.cache.get("ns/a").getMetadata().getResourceVersion()).isEqualTo("10");
		assertThat(this.skipped).hasValue(0);
		assertThat(this.logs.list).isEmpty();
	}

	@Test
	void deletedObjectThatDoesNotDecodeAndWasNotCachedIsDeletedWithItsMetadataOnly() {
		Watch.Response<Gadget> response = this.decoder
			.decodeEvent(event("DELETED", gadget("b", "ub", "30", "\"many\"")));
		assertThat(response.type).isEqualTo("DELETED");
		assertThat(response.object.getMetadata().getNamespace()).isEqualTo("ns");
		assertThat(response.object.getMetadata().getName()).isEqualTo("b");
		assertThat(response.object.getMetadata().getResourceVersion()).isEqualTo("30");
		assertThat(response.object.getSpec()).isNull();
	}

	@Test
	void errorEventCarriesItsStatus() {
		Watch.Response<Gadget> response = this.decoder.decodeEvent("""
				{"type": "ERROR", "object": {"kind": "Status", "apiVersion": "v1", "status": "Failure",
				 "message": "too old resource version: 1 (20)", "reason": "Expired", "code": 410}}
				""".replace("\n", ""));
		assertThat(response.type).isEqualTo("ERROR");
		assertThat(response.object).isNull();
		assertThat(response.status.getCode()).isEqualTo(410);
	}

	@Test
	void bookmarkIsDeliveredAsSent() {
		Watch.Response<Gadget> response = this.decoder
			.decodeEvent(event("BOOKMARK", "{\"kind\": \"Gadget\", \"apiVersion\": \"test.kubeboot.io/v1\", "
					+ "\"metadata\": {\"resourceVersion\": \"40\"}}"));
		assertThat(response.type).isEqualTo("BOOKMARK");
		assertThat(response.object.getMetadata().getResourceVersion()).isEqualTo("40");
	}

	@Test
	void bookmarkOfAKindWhoseModelRequiresMoreThanMetadataCarriesItsResourceVersion() {
		ObjectDecoder<V1CustomResourceDefinition> crds = new ObjectDecoder<>(V1CustomResourceDefinition.class,
				"CustomResourceDefinition", this.json.getGson(), (namespace, name) -> Optional.empty(),
				this.skipped::incrementAndGet);
		// an empty object, as kube-apiserver sends it: spec.versions is null
		Watch.Response<V1CustomResourceDefinition> response = crds.decodeEvent(event("BOOKMARK",
				"{\"kind\": \"CustomResourceDefinition\", \"apiVersion\": \"apiextensions.k8s.io/v1\", "
						+ "\"metadata\": {\"resourceVersion\": \"41\", \"creationTimestamp\": null}, "
						+ "\"spec\": {\"group\": \"\", \"names\": {\"plural\": \"\", \"kind\": \"\"}, "
						+ "\"scope\": \"\", \"versions\": null}}"));
		assertThat(response.type).isEqualTo("BOOKMARK");
		assertThat(response.object.getMetadata().getResourceVersion()).isEqualTo("41");
		assertThat(this.skipped).hasValue(0);
		assertThat(this.logs.list).isEmpty();
	}

	@Test
	void pagedListHasTheItemsOfEveryPageAndTheFirstPagesMetadata() throws IOException {
		ObjectDecoder<Gadget>.PagedList list = this.decoder.newList();
		V1ListMeta first = page(list,
				"{\"apiVersion\": \"test.kubeboot.io/v1\", \"kind\": \"GadgetList\", "
						+ "\"metadata\": {\"resourceVersion\": \"20\", \"continue\": \"c1\"}, \"items\": [%s, %s]}"
							.formatted(gadget("a", "ua", "10", "1"), gadget("b", "ub", "11", "\"many\"")));
		assertThat(first.getContinue()).isEqualTo("c1");
		V1ListMeta last = page(list, "{\"metadata\": {\"resourceVersion\": \"20\"}, \"items\": [%s]}"
			.formatted(gadget("c", "uc", "12", "3")));
		assertThat(last.getContinue()).isNull();
		KubernetesListObject complete = list.finish();
		assertThat(complete.getItems()).map((item) -> item.getMetadata().getName()).containsExactly("a", "c");
		assertThat(complete.getMetadata().getResourceVersion()).isEqualTo("20");
		assertThat(complete.getMetadata().getContinue()).isNull();
		assertThat(complete.getKind()).isEqualTo("GadgetList");
		assertThat(this.skipped).hasValue(1);
	}

	@Test
	void discardedPagesLeaveNothingBehind() throws IOException {
		ObjectDecoder<Gadget>.PagedList list = this.decoder.newList();
		page(list, "{\"metadata\": {\"resourceVersion\": \"20\", \"continue\": \"c1\"}, \"items\": [%s, %s]}"
			.formatted(gadget("a", "ua", "10", "1"), gadget("b", "ub", "11", "\"many\"")));
		list.discard();
		page(list, "{\"metadata\": {\"resourceVersion\": \"35\"}, \"items\": [%s]}"
			.formatted(gadget("c", "uc", "30", "3")));
		KubernetesListObject complete = list.finish();
		assertThat(complete.getItems()).map((item) -> item.getMetadata().getName()).containsExactly("c");
		assertThat(complete.getMetadata().getResourceVersion()).isEqualTo("35");
		// b is no longer in the list: should it fail to decode again, that is news
		this.decoder.decodeEvent(event("ADDED", gadget("b", "ub", "11", "\"many\"")));
		assertThat(this.skipped).hasValue(2);
	}

	private static V1ListMeta page(ObjectDecoder<Gadget>.PagedList list, String body) throws IOException {
		try (JsonReader reader = new JsonReader(new StringReader(body))) {
			return list.readPage(reader);
		}
	}

	private KubernetesListObject list(String body) throws IOException {
		try (JsonReader reader = new JsonReader(new StringReader(body))) {
			return this.decoder.decodeList(reader);
		}
	}

	private Gadget decode(String gadget) {
		return this.json.deserialize(gadget, Gadget.class);
	}

	static String gadget(String name, String uid, String resourceVersion, String replicas) {
		return """
				{"apiVersion": "test.kubeboot.io/v1", "kind": "Gadget",
				 "metadata": {"name": "%s", "namespace": "ns", "uid": "%s", "resourceVersion": "%s"},
				 "spec": {"replicas": %s}}""".formatted(name, uid, resourceVersion, replicas).replace("\n", "");
	}

	static String event(String type, String object) {
		return "{\"type\": \"" + type + "\", \"object\": " + object + "}";
	}

}
