package io.kubeboot.operator.cache.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import io.kubernetes.client.common.KubernetesListObject;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.Pair;
import okhttp3.MediaType;
import okhttp3.Protocol;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.ResponseBody;
import org.junit.jupiter.api.Test;

import static io.kubeboot.operator.cache.internal.ObjectDecoderTests.event;
import static io.kubeboot.operator.cache.internal.ObjectDecoderTests.gadget;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.tuple;

/**
 * Tests for {@link StreamingList}: the events of a streamed list read into one list, and
 * the fall-back to pages. The integration tests show the same against kube-apiserver.
 */
class StreamingListTests {

	private static final String END = """
			{"type": "BOOKMARK", "object": {"apiVersion": "test.kubeboot.io/v1", "kind": "Gadget",
			 "metadata": {"resourceVersion": "42", "annotations": {"k8s.io/initial-events-end": "true"}}}}"""
		.replace("\n", "");

	private final AtomicLong skipped = new AtomicLong();

	private final ObjectDecoder<Gadget> decoder = new ObjectDecoder<>(Gadget.class, "Gadget", new JSON().getGson(),
			(namespace, name) -> Optional.empty(), this.skipped::incrementAndGet);

	private final List<List<Pair>> requests = new ArrayList<>();

	@Test
	void readsTheInitialEventsUpToTheBookmarkThatEndsThem() throws ApiException {
		StreamingList streaming = new StreamingList(true);
		ObjectDecoder<Gadget>.PagedList list = this.decoder.newList();
		String body = String.join("\n", event("ADDED", gadget("a", "ua", "10", "1")),
				event("ADDED", gadget("b", "ub", "11", "\"many\"")), event("ADDED", gadget("c", "uc", "12", "3")), END,
				event("MODIFIED", gadget("a", "ua", "43", "2")));
		assertThat(streaming.read("", "app=x", null, answering(200, body), list, "Gadget")).isTrue();
		KubernetesListObject read = list.finish();
		assertThat(read.getMetadata().getResourceVersion()).isEqualTo("42");
		assertThat(read.getKind()).isEqualTo("GadgetList");
		// the one that does not decode is skipped, the event after the bookmark is not
		// the list's
		assertThat(read.getItems()).map((item) -> item.getMetadata().getName()).containsExactly("a", "c");
		assertThat(this.skipped).hasValue(1);
		assertThat(this.requests).singleElement()
			.satisfies((query) -> assertThat(query).extracting(Pair::getName, Pair::getValue)
				.containsExactly(tuple("watch", "true"), tuple("sendInitialEvents", "true"),
						tuple("resourceVersionMatch", "NotOlderThan"), tuple("allowWatchBookmarks", "true"),
						tuple("labelSelector", "app=x")));
		assertThat(streaming.enabled()).isTrue();
	}

	@Test
	void anEmptyCollectionIsTheBookmarkAlone() throws ApiException {
		ObjectDecoder<Gadget>.PagedList list = this.decoder.newList();
		assertThat(new StreamingList(true).read("42", null, null, answering(200, END), list, "Gadget")).isTrue();
		assertThat(list.finish().getItems()).isEmpty();
		assertThat(this.requests.get(0)).extracting(Pair::getName, Pair::getValue)
			.contains(tuple("resourceVersion", "42"));
	}

	@Test
	void theFirstListIsAConsistentReadNotWhateverTheWatchCacheHolds() throws ApiException {
		// client-java's reflector asks for its first list at "0"
		assertThat(new StreamingList(true).read("0", null, null, answering(200, END), this.decoder.newList(), "Gadget"))
			.isTrue();
		assertThat(this.requests.get(0)).extracting(Pair::getName)
			.contains("resourceVersionMatch")
			.doesNotContain("resourceVersion");
	}

	@Test
	void aServerThatRefusesStreamingIsAskedForPagesFromThenOn() throws ApiException {
		StreamingList streaming = new StreamingList(true);
		StreamingList.Sender refusing = (query) -> {
			throw new ApiException("Unprocessable Entity", 422, null,
					"{\"kind\":\"Status\",\"message\":\"sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled\"}");
		};
		assertThat(streaming.read(null, null, null, refusing, this.decoder.newList(), "Gadget")).isFalse();
		assertThat(streaming.enabled()).isFalse();
	}

	@Test
	void theFieldSelectorIsAskedForWithTheLabelSelector() throws ApiException {
		assertThat(new StreamingList(true).read("42", "app=x", "spec.color=blue", answering(200, END),
				this.decoder.newList(), "Gadget"))
			.isTrue();
		assertThat(this.requests.get(0)).extracting(Pair::getName, Pair::getValue)
			.contains(tuple("labelSelector", "app=x"), tuple("fieldSelector", "spec.color=blue"));
	}

	@Test
	void aFieldSelectorTheServerRefusesFailsTheListAndKeepsStreaming() {
		// 400 as a server that does not stream lists answers, but about the field
		// selector: listing in pages would be refused it all the same
		StreamingList streaming = new StreamingList(true);
		StreamingList.Sender refusing = (query) -> {
			throw new ApiException("Bad Request", 400, null,
					"{\"kind\":\"Status\",\"code\":400,\"reason\":\"BadRequest\","
							+ "\"message\":\"field label not supported: spec.shape\"}");
		};
		assertThatExceptionOfType(ApiException.class)
			.isThrownBy(
					() -> streaming.read(null, null, "spec.shape=round", refusing, this.decoder.newList(), "Gadget"))
			.satisfies((ex) -> assertThat(ex.getCode()).isEqualTo(400));
		assertThat(streaming.enabled()).isTrue();
	}

	@Test
	void anErrorEventOfAnotherKindFailsTheListWithItsCode() {
		StreamingList streaming = new StreamingList(true);
		String gone = "{\"type\": \"ERROR\", \"object\": {\"kind\": \"Status\", \"apiVersion\": \"v1\", \"code\": 410,"
				+ " \"reason\": \"Expired\", \"message\": \"too old resource version\"}}";
		assertThatExceptionOfType(ApiException.class)
			.isThrownBy(() -> streaming.read("7", null, null, answering(200, gone), this.decoder.newList(), "Gadget"))
			.satisfies((ex) -> assertThat(ex.getCode()).isEqualTo(410));
		assertThat(streaming.enabled()).isTrue();
	}

	@Test
	void aStreamThatEndsBeforeItsBookmarkFailsTheList() {
		String body = event("ADDED", gadget("a", "ua", "10", "1"));
		assertThatExceptionOfType(ApiException.class)
			.isThrownBy(() -> new StreamingList(true).read(null, null, null, answering(200, body),
					this.decoder.newList(), "Gadget"))
			.withMessageContaining("ended before its initial events did");
	}

	@Test
	void anUpdateAmongTheInitialEventsFailsTheList() {
		String body = String.join("\n", event("ADDED", gadget("a", "ua", "10", "1")),
				event("MODIFIED", gadget("a", "ua", "11", "2")), END);
		assertThatExceptionOfType(ApiException.class)
			.isThrownBy(() -> new StreamingList(true).read(null, null, null, answering(200, body),
					this.decoder.newList(), "Gadget"))
			.withMessageContaining("MODIFIED event before its initial events ended");
	}

	@Test
	void theStreamIsHandedOnPastItsBookmarkForTheWatchToReadOn() throws Exception {
		String after = event("MODIFIED", gadget("a", "ua", "43", "2"));
		String body = String.join("\n", event("ADDED", gadget("a", "ua", "10", "1")), END, after);
		List<Response> handedOn = new ArrayList<>();
		assertThat(new StreamingList(true).read(null, null, null, 300L, answering(200, body), this.decoder.newList(),
				"Gadget", () -> {
				}, handedOn::add))
			.isTrue();
		assertThat(this.requests.get(0)).extracting(Pair::getName, Pair::getValue)
			.contains(tuple("timeoutSeconds", "300"));
		try (Response response = handedOn.get(0)) {
			assertThat(response.body().source().readUtf8Line()).isEqualTo(after);
		}
	}

	@Test
	void theApiServerIsHeardFromAtItsAnswerAndAtEveryEventOfTheStream() throws Exception {
		String body = String.join("\n", event("ADDED", gadget("a", "ua", "10", "1")),
				event("ADDED", gadget("b", "ub", "11", "2")), END);
		AtomicInteger heard = new AtomicInteger();
		assertThat(new StreamingList(true).read(null, null, null, 300L, answering(200, body), this.decoder.newList(),
				"Gadget", heard::incrementAndGet, null))
			.isTrue();
		// once answered, then at each of the three events: the heartbeat skips its
		// probe while a long list streams
		assertThat(heard).hasValue(4);
	}

	@Test
	void aStreamThatFailsIsClosedNotHandedOn() {
		List<Response> handedOn = new ArrayList<>();
		AtomicBoolean closed = new AtomicBoolean();
		StreamingList.Sender sender = (query) -> {
			Response response = answering(200, event("ADDED", gadget("a", "ua", "10", "1"))).send(query);
			return response.newBuilder().body(new ResponseBody() {

				@Override
				public MediaType contentType() {
					return response.body().contentType();
				}

				@Override
				public long contentLength() {
					return -1;
				}

				@Override
				public okio.BufferedSource source() {
					return response.body().source();
				}

				@Override
				public void close() {
					closed.set(true);
					super.close();
				}

			}).build();
		};
		assertThatExceptionOfType(ApiException.class).isThrownBy(() -> new StreamingList(true).read(null, null, null,
				300L, sender, this.decoder.newList(), "Gadget", () -> {
				}, handedOn::add));
		assertThat(handedOn).isEmpty();
		assertThat(closed).isTrue();
	}

	private StreamingList.Sender answering(int code, String body) {
		return (query) -> {
			this.requests.add(query);
			return new Response.Builder().request(new Request.Builder().url("https://127.0.0.1/apis").build())
				.protocol(Protocol.HTTP_1_1)
				.code(code)
				.message("OK")
				.body(ResponseBody.create(body + "\n", MediaType.get("application/json")))
				.build();
		};
	}

}
