package io.kubeboot.operator.controller;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.kubeboot.operator.manager.StopSignal;
import io.kubeboot.operator.reconcile.Request;
import io.kubeboot.operator.reconcile.ReconcileTrigger;
import io.kubeboot.operator.source.RequestQueue;
import io.kubeboot.operator.source.Source;
import io.kubeboot.operator.workqueue.WorkQueue;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the sources of a controller whenever it runs, each on a thread of its own, and
 * stops them before the controller's workers stop: stop signal first, then a bounded
 * wait, then an interrupt. A source added while the controller runs starts at once;
 * adding and starting share one lock, so no source starts twice or misses a run. Each
 * request a source queues is recorded with the kind of trigger the source says
 * ({@link Source#triggerKind()}: {@code periodic} for an {@code IntervalTrigger}). What a
 * source adds at once goes through the controller's {@link Admission} (its namespace
 * filter); what it adds after a delay is looked at when a worker takes it.
 */
final class SourceRunner {

	private static final Logger logger = LoggerFactory.getLogger(SourceRunner.class);

	private static final Duration STOP_WAIT = Duration.ofSeconds(5);

	private final String controller;

	private final Admission admission;

	private final List<Source> sources = new ArrayList<>();

	private final List<Thread> threads = new ArrayList<>();

	private StopSignal stop = new StopSignal();

	/** The queue of the current run, {@code null} while the controller does not run. */
	private @Nullable TriggeredQueue run;

	private int started;

	SourceRunner(String controller, Admission admission) {
		this.controller = controller;
		this.admission = admission;
	}

	synchronized void add(Source source) {
		this.sources.add(source);
		if (this.run != null) {
			startOne(source, this.run);
		}
	}

	synchronized List<Source> sources() {
		return List.copyOf(this.sources);
	}

	synchronized void startAll(TriggeredQueue run) {
		this.stop = new StopSignal();
		this.run = run;
		this.sources.forEach((source) -> startOne(source, run));
	}

	private void startOne(Source source, TriggeredQueue run) {
		StopSignal signal = this.stop;
		RequestQueue view = new QueueView(run, source.triggerKind(), this.admission);
		Thread thread = new Thread(() -> run(source, view, signal),
				"controller-" + this.controller + "-source-" + this.started++);
		this.threads.add(thread);
		thread.start();
	}

	void stopAll() {
		List<Thread> running;
		synchronized (this) {
			this.run = null;
			this.stop.fire();
			running = new ArrayList<>(this.threads);
			this.threads.clear();
		}
		long deadline = System.nanoTime() + STOP_WAIT.toNanos();
		for (Thread thread : running) {
			try {
				thread.join(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
				if (thread.isAlive()) {
					logger.warn("Source did not stop when asked, interrupting it: controller={} thread={}",
							this.controller, thread.getName());
					thread.interrupt();
				}
			}
			catch (InterruptedException ex) {
				thread.interrupt();
				Thread.currentThread().interrupt();
			}
		}
	}

	private void run(Source source, RequestQueue queue, StopSignal signal) {
		try {
			source.start(queue, signal);
		}
		catch (InterruptedException ex) {
			if (!signal.isStopRequested()) {
				logger.error("Source interrupted, its requests stop: controller={} source={}", this.controller, source);
			}
		}
		catch (Throwable ex) {
			logger.error("Source failed, its requests stop: controller={} source={}", this.controller, source, ex);
		}
	}

	/**
	 * Decides whether and how a request a source adds enters the controller's queue.
	 */
	@FunctionalInterface
	interface Admission {

		/**
		 * Adds a request to the queue with its trigger, or holds or drops it.
		 * @param run the controller's queue of the run
		 * @param request the request
		 * @param priority its priority
		 * @param trigger why it is queued
		 */
		void add(TriggeredQueue run, Request request, int priority, ReconcileTrigger trigger);

	}

	private record QueueView(TriggeredQueue run, ReconcileTrigger.Kind kind,
			Admission admission) implements RequestQueue {

		@Override
		public void add(Request request) {
			add(request, WorkQueue.DEFAULT_PRIORITY);
		}

		@Override
		public void addAfter(Request request, Duration delay) {
			addAfter(request, delay, WorkQueue.DEFAULT_PRIORITY);
		}

		@Override
		public void add(Request request, int priority) {
			this.admission.add(this.run, request, priority, ReconcileTrigger.of(this.kind));
		}

		@Override
		public void addAfter(Request request, Duration delay, int priority) {
			this.run.addAfter(request, delay, priority, ReconcileTrigger.of(this.kind));
		}

	}

}
