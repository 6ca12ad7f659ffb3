package io.kubeboot.operator.cache.internal;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.models.V1ListMeta;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link ListPager}: which lists are paged, how pages are followed, and what
 * happens when a continue token expires.
 */
class ListPagerTests {

	private final ListPager pager = new ListPager(3);

	@Test
	void followsContinueTokensUntilAPageHasNoneAndKeepsTheFirstPagesResourceVersion() throws ApiException {
		ScriptedReader reader = new ScriptedReader().page("20", "c1").page("20", "c2").page("20", null);
		V1ListMeta list = this.pager.list("0", reader);
		assertThat(list.getResourceVersion()).isEqualTo("20");
		assertThat(list.getContinue()).isNull();
		// pages after the first carry the continue token, never a resourceVersion
		assertThat(reader.requests).containsExactly("rv=0 limit=3 continue=null", "rv=null limit=3 continue=c1",
				"rv=null limit=3 continue=c2");
		assertThat(reader.discarded).isZero();
	}

	@Test
	void followsEmptyPagesThatHaveAContinueToken() throws ApiException {
		ScriptedReader reader = new ScriptedReader().page("20", "c1").page("20", "c2").page("20", "");
		V1ListMeta list = this.pager.list(null, reader);
		assertThat(list.getResourceVersion()).isEqualTo("20");
		assertThat(reader.requests).containsExactly("rv=null limit=3 continue=null", "rv=null limit=3 continue=c1",
				"rv=null limit=3 continue=c2");
	}

	@Test
	void aListThatFitsInOnePageIsOneRequest() throws ApiException {
		ScriptedReader reader = new ScriptedReader().page("20", null);
		assertThat(this.pager.list("", reader).getResourceVersion()).isEqualTo("20");
		// "" asks for the latest version: no resourceVersion parameter at all
		assertThat(reader.requests).containsExactly("rv=null limit=3 continue=null");
	}

	@Test
	void anExpiredContinueTokenDropsThePagesReadAndListsAgainInOneRequest() throws ApiException {
		ScriptedReader reader = new ScriptedReader().page("20", "c1").page("20", "c2").gone().page("35", "ignored");
		V1ListMeta list = this.pager.list("0", reader);
		assertThat(reader.requests).containsExactly("rv=0 limit=3 continue=null", "rv=null limit=3 continue=c1",
				"rv=null limit=3 continue=c2", "rv=0 limit=null continue=null");
		assertThat(reader.discarded).isEqualTo(1);
		assertThat(list.getResourceVersion()).isEqualTo("35");
		assertThat(list.getContinue()).isNull();
	}

	@Test
	void goneOnTheFirstPageReachesTheReflector() {
		ScriptedReader reader = new ScriptedReader().gone();
		assertThatExceptionOfType(ApiException.class).isThrownBy(() -> this.pager.list("0", reader))
			.satisfies((ex) -> assertThat(ex.getCode()).isEqualTo(410));
		assertThat(reader.requests).containsExactly("rv=0 limit=3 continue=null");
		assertThat(reader.discarded).isZero();
	}

	@Test
	void otherErrorsOfLaterPagesReachTheReflector() {
		ScriptedReader reader = new ScriptedReader().page("20", "c1").fail(500);
		assertThatExceptionOfType(ApiException.class).isThrownBy(() -> this.pager.list("0", reader))
			.satisfies((ex) -> assertThat(ex.getCode()).isEqualTo(500));
		assertThat(reader.discarded).isZero();
	}

	@Test
	void aRelistAtAKnownResourceVersionIsNotPagedWhileTheServerServedListsWhole() throws ApiException {
		ScriptedReader first = new ScriptedReader().page("20", null);
		this.pager.list("0", first);
		ScriptedReader relist = new ScriptedReader().page("30", null);
		this.pager.list("25", relist);
		// a limit would make the API server read etcd at exactly revision 25 instead of
		// serving the list from its watch cache
		assertThat(relist.requests).containsExactly("rv=25 limit=null continue=null");
	}

	@Test
	void aRelistAtAKnownResourceVersionIsPagedOnceTheServerPagedAList() throws ApiException {
		this.pager.list("0", new ScriptedReader().page("20", "c1").page("20", null));
		ScriptedReader relist = new ScriptedReader().page("30", "c3").page("30", null);
		this.pager.list("25", relist);
		assertThat(relist.requests).containsExactly("rv=25 limit=3 continue=null", "rv=null limit=3 continue=c3");
	}

	@Test
	void pageSizeMustBePositive() {
		assertThatIllegalArgumentException().isThrownBy(() -> new ListPager(0))
			.withMessage("pageSize must be at least 1, was 0");
	}

	/**
	 * Answers the pager's requests from a script and records them.
	 */
	private static final class ScriptedReader implements ListPager.PageReader {

		private final Deque<Object> answers = new ArrayDeque<>();

		private final List<String> requests = new ArrayList<>();

		private int discarded;

		ScriptedReader page(String resourceVersion, @Nullable String continueToken) {
			this.answers.add(new V1ListMeta().resourceVersion(resourceVersion)._continue(continueToken));
			return this;
		}

		ScriptedReader gone() {
			return fail(410);
		}

		ScriptedReader fail(int code) {
			this.answers.add(new ApiException(code, "failed with " + code));
			return this;
		}

		@Override
		public V1ListMeta read(ListPager.PageRequest request) throws ApiException {
			this.requests.add("rv=" + request.resourceVersion() + " limit=" + request.limit() + " continue="
					+ request.continueToken());
			Object answer = this.answers.removeFirst();
			if (answer instanceof ApiException ex) {
				throw ex;
			}
			return (V1ListMeta) answer;
		}

		@Override
		public void discard() {
			this.discarded++;
		}

	}

}
