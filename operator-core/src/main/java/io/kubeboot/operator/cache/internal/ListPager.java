package io.kubeboot.operator.cache.internal;

import java.net.HttpURLConnection;

import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.models.V1ListMeta;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads one informer's lists in pages of at most {@code pageSize} objects, following each
 * page's {@code continue} token until a page has none, so that a big collection is read
 * in many small requests instead of one huge one. The pages after the first carry no
 * {@code resourceVersion}: their continue token pins them to the first page's snapshot,
 * and together they are one consistent list at that snapshot's resourceVersion.
 * <p>
 * Which lists are paged depends on the resourceVersion the reflector lists at, because
 * kube-apiserver (1.20) serves a list either from its watch cache, which cannot page, or
 * from etcd:
 * <ul>
 * <li>{@code "0"}, the first list: paged. The API server serves it from its watch cache
 * when it has one for the kind and then ignores the limit and answers with everything in
 * one response, the cheapest list there is, which spares etcd when many clients start at
 * once. A server without a watch cache for the kind reads it from etcd and pages it.</li>
 * <li>{@code ""}, a relist after the reflector's resourceVersion expired (410 Gone): a
 * consistent read from etcd, paged.</li>
 * <li>any other version, a relist after a watch failed: not paged, so that the API server
 * serves it from its watch cache (with a limit it would read etcd at exactly that
 * revision, and answer 410 Gone once etcd compacted it). Once the server has paged a list
 * of this informer, which means it has no watch cache for the kind, these are paged
 * too.</li>
 * </ul>
 * A continue token expires when etcd compacts the snapshot while the list is being read
 * (410 Gone on a later page, every five minutes by default). The pages read so far are
 * then dropped and the list is read again in one unpaged request at the resourceVersion
 * first asked for: a paged restart could expire again for the same reason, one request
 * always completes. This is the semantics of client-go's reflector and pager.
 */
final class ListPager {

	/** The page size of client-go's pager. */
	static final int DEFAULT_PAGE_SIZE = 500;

	private static final Logger logger = LoggerFactory.getLogger(ListPager.class);

	private final int pageSize;

	/** Whether the API server paged a list of this informer: it has no watch cache. */
	private volatile boolean serverPages;

	/**
	 * Creates a pager.
	 * @param pageSize the most objects one request asks for
	 */
	ListPager(int pageSize) {
		if (pageSize < 1) {
			throw new IllegalArgumentException("pageSize must be at least 1, was " + pageSize);
		}
		this.pageSize = pageSize;
	}

	/**
	 * Reads one list, page by page.
	 * @param resourceVersion the resourceVersion the reflector lists at, {@code null} or
	 * {@code ""} for the latest
	 * @param reader sends each request and keeps its items
	 * @return the metadata of the list: the first page's resourceVersion, no continue
	 * token
	 * @throws ApiException if a request fails; a 410 Gone of the first page reaches the
	 * reflector, which then lists again at the latest resourceVersion
	 */
	V1ListMeta list(@Nullable String resourceVersion, PageReader reader) throws ApiException {
		String version = (resourceVersion != null && !resourceVersion.isEmpty()) ? resourceVersion : null;
		Integer limit = paged(version) ? this.pageSize : null;
		V1ListMeta first = null;
		String continueToken = null;
		int pages = 0;
		while (true) {
			V1ListMeta page;
			try {
				page = reader.read(new PageRequest((continueToken == null) ? version : null, limit, continueToken));
			}
			catch (ApiException ex) {
				if (continueToken == null || ex.getCode() != HttpURLConnection.HTTP_GONE) {
					throw ex;
				}
				logger.info(
						"Continue token expired while listing in pages, listing again in one request: resourceVersion={} pagesRead={}",
						(version != null) ? version : "", pages);
				reader.discard();
				V1ListMeta whole = reader.read(new PageRequest(version, null, null));
				whole.setContinue(null);
				return whole;
			}
			pages++;
			if (first == null) {
				first = page;
			}
			continueToken = page.getContinue();
			if (continueToken == null || continueToken.isEmpty()) {
				first.setContinue(null);
				return first;
			}
			this.serverPages = true;
		}
	}

	private boolean paged(@Nullable String resourceVersion) {
		return resourceVersion == null || resourceVersion.equals("0") || this.serverPages;
	}

	/**
	 * One list request.
	 *
	 * @param resourceVersion the resourceVersion, {@code null} for none (the latest, or
	 * the continue token's)
	 * @param limit the most objects to return, {@code null} for all
	 * @param continueToken the previous page's continue token, {@code null} for the first
	 * page
	 */
	record PageRequest(@Nullable String resourceVersion, @Nullable Integer limit, @Nullable String continueToken) {

	}

	/**
	 * Sends the requests of one list and keeps the items of its pages.
	 */
	interface PageReader {

		/**
		 * Sends one request and keeps the items of its answer.
		 * @param request the request
		 * @return the answer's list metadata: its resourceVersion and continue token
		 * @throws ApiException if the request fails
		 */
		V1ListMeta read(PageRequest request) throws ApiException;

		/**
		 * Drops the items of the pages read so far: the list is read again.
		 */
		void discard();

	}

}
