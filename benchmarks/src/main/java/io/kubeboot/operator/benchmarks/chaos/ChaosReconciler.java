package io.kubeboot.operator.benchmarks.chaos;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

import io.kubeboot.operator.benchmarks.chaos.ReconcileJournal.Event;
import io.kubeboot.operator.benchmarks.model.Widget;
import io.kubeboot.operator.cache.Cache;
import io.kubeboot.operator.client.Client;
import io.kubeboot.operator.client.Patch;
import io.kubeboot.operator.reconcile.Reconciler;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.reconcile.Result;

/**
 * The reconciler of a chaos replica: reads the widget from the cache and copies its
 * {@code spec.value} and generation into {@code status.observedValue} and
 * {@code status.observedGeneration} through the {@link Client}, journaling the start and
 * end of every reconcile ({@link ReconcileJournal}). Thread-safe.
 */
final class ChaosReconciler implements Reconciler {

	private final ReconcileJournal journal;

	private final Cache cache;

	private final Client writer;

	private final Duration work;

	private final boolean workAlways;

	private final Duration requeueAfter;

	private final Supplier<String> term;

	private ChaosReconciler(ReconcileJournal journal, Cache cache, Client writer, Duration work, boolean workAlways,
			Duration requeueAfter, Supplier<String> term) {
		this.journal = journal;
		this.cache = cache;
		this.writer = writer;
		this.work = work;
		this.workAlways = workAlways;
		this.requeueAfter = requeueAfter;
		this.term = term;
	}

	/**
	 * The reconciler of a replica with leader election: works before each status write (a
	 * widget whose status is up to date is skipped at once) and is done; specs updated by
	 * the harness bring the next reconciles.
	 * @param journal the journal
	 * @param cache the cache to read widgets from
	 * @param writer the client to write the status with
	 * @param work how long a reconcile works before it writes
	 * @param term the replica's current term, journaled with each start and end
	 * @return the reconciler
	 */
	static ChaosReconciler onWrites(ReconcileJournal journal, Cache cache, Client writer, Duration work,
			Supplier<String> term) {
		return new ChaosReconciler(journal, cache, writer, work, false, null, term);
	}

	/**
	 * The reconciler of a sharded replica: works on every reconcile, whether it writes or
	 * not, and asks to be called again after {@code requeueAfter}. So every object is
	 * reconciled over and over and each reconcile lasts a while: a replica that went on
	 * reconciling an object after another took it over would overlap with that one in the
	 * journals, where reconciles of no duration, or only on changes, would hardly ever
	 * meet.
	 * @param journal the journal
	 * @param cache the cache to read widgets from
	 * @param writer the client to write the status with
	 * @param work how long every reconcile works
	 * @param requeueAfter when to reconcile the widget again
	 * @return the reconciler
	 */
	static ChaosReconciler periodic(ReconcileJournal journal, Cache cache, Client writer, Duration work,
			Duration requeueAfter) {
		return new ChaosReconciler(journal, cache, writer, work, true, Objects.requireNonNull(requeueAfter),
				() -> ReconcileJournal.NO_TERM);
	}

	@Override
	public Result reconcile(Request request) throws Exception {
		long started = ReconcileJournal.now();
		String term = this.term.get();
		long id = this.journal.nextId();
		String key = request.namespace() + "/" + request.name();
		Widget widget = this.cache.get(Widget.class, request).orElse(null);
		Long value = (widget != null) ? valueOf(widget) : null;
		Long generation = (widget != null) ? widget.getMetadata().getGeneration() : null;
		this.journal.append(started, term, Event.START, key, id, (value != null) ? value : "-",
				(generation != null) ? generation : "-");
		String outcome = "error";
		try {
			if (widget == null) {
				outcome = "gone";
				return Result.done();
			}
			Widget.Status status = widget.getStatus();
			boolean upToDate = status != null && Objects.equals(status.getObservedValue(), value)
					&& Objects.equals(status.getObservedGeneration(), generation);
			if (!upToDate || this.workAlways) {
				// simulated work, not a wait for a condition: it gives the reconcile a
				// duration in the journal, in which another replica's reconcile of the
				// same widget would show as an overlap
				Thread.sleep(this.work.toMillis());
			}
			if (upToDate) {
				outcome = "skip";
				return next();
			}
			this.writer.status()
				.patch(widget, Patch
					.merge(Map.of("status", Map.of("observedValue", value, "observedGeneration", generation))));
			outcome = "wrote";
			return next();
		}
		catch (Exception ex) {
			outcome = "error:" + ex.getClass().getSimpleName();
			throw ex;
		}
		finally {
			this.journal.append(ReconcileJournal.now(), term, Event.END, key, id, outcome);
		}
	}

	private Result next() {
		return (this.requeueAfter != null) ? Result.requeueAfter(this.requeueAfter) : Result.done();
	}

	private static long valueOf(Widget widget) {
		Long value = (widget.getSpec() != null) ? widget.getSpec().getValue() : null;
		return (value != null) ? value : 0L;
	}

}
