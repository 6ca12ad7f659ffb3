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
 * ({@link Source#triggerKind()}: {@code periodic} for an {@code IntervalTrigger}).
 */
final class SourceRunner {

	private static final Logger logger = LoggerFactory.getLogger(SourceRunner.class);

	private static final Duration STOP_WAIT = Duration.ofSeconds(5);

	private final String controller;

	private final List<Source> sources = new ArrayList<>();

	private final List<Thread> threads = new ArrayList<>();

	private StopSignal stop = new StopSignal();

	/** The queue of the current run, {@code null} while the controller does not run. */
	private @Nullable TriggeredQueue run;

	private int started;

	SourceRunner(String controller) {
		this.controller = controller;
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
		RequestQueue view = new QueueView(run, source.triggerKind());
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

	private record QueueView(TriggeredQueue run, ReconcileTrigger.Kind kind) implements RequestQueue {

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
			this.run.add(request, priority, ReconcileTrigger.of(this.kind));
		}

		@Override
		public void addAfter(Request request, Duration delay, int priority) {
			this.run.addAfter(request, delay, priority, ReconcileTrigger.of(this.kind));
		}

	}

}
