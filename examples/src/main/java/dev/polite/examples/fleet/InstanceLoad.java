package dev.polite.examples.fleet;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;
import okhttp3.Request;
import okhttp3.Response;

/**
 * The client side of one row, for the instances one JVM runs (all P in process, or the one of a
 * child process): C worker threads per instance, each making the row's GET in a closed loop (the
 * next call as soon as the last one ends) for D from {@link #run()}'s start. Then no new call
 * starts; calls still running may finish for up to {@link #DRAIN}, and the rest are
 * cancelled and counted as cut, not failed. It marks its own counters at
 * {@link #STEADY_FROM} and at D, so that each JVM measures the steady state on its own
 * clock and the parent only sums.
 *
 * <p>Usage: {@code InstanceReport report = new InstanceLoad(List.of(instance), 4, Duration.ofSeconds(7), request).run();}
 */
final class InstanceLoad {
  /** Where steady state starts: after the first second, the starting burst spent. */
  static final Duration STEADY_FROM = Duration.ofSeconds(1);
  /** How long calls still running at D may take to finish before they are cancelled. */
  static final Duration DRAIN = Duration.ofSeconds(10);
  /** How often the instances are asked whether they pace alone for want of Redis. */
  private static final Duration FALLBACK_SAMPLE = Duration.ofMillis(50);

  private final List<FleetInstance> instances;
  private final int threads;
  private final Duration length;
  private final Request request;

  private final AtomicLong ok = new AtomicLong();
  private final AtomicLong refusedToCaller = new AtomicLong();
  private final AtomicLong failed = new AtomicLong();
  private final AtomicLong cut = new AtomicLong();
  private final ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
  private final CallDurations durations = new CallDurations();
  private final AtomicBoolean stopping = new AtomicBoolean();
  private final AtomicBoolean cutting = new AtomicBoolean();
  private final AtomicLong samples = new AtomicLong();
  private final AtomicLong fallingBack = new AtomicLong();

  InstanceLoad(List<FleetInstance> instances, int threads, Duration length, Request request) {
    this.instances = List.copyOf(instances);
    this.threads = threads;
    this.length = length;
    this.request = request;
  }

  /** Runs the load from now; returns after D and the drain. */
  InstanceReport run() throws InterruptedException {
    CountDownLatch ended = new CountDownLatch(instances.size() * threads);
    List<Thread> workers = new ArrayList<>();
    for (FleetInstance instance : instances) {
      for (int t = 0; t < threads; t++) {
        Thread worker = new Thread(() -> {
          try {
            loop(instance);
          } finally {
            ended.countDown();
          }
        }, "fleet-" + workers.size());
        worker.setDaemon(true);
        workers.add(worker);
      }
    }
    long start = System.nanoTime();
    workers.forEach(Thread::start);
    // Sampled rather than counted: the shared state tells whether it falls back now, not how often.
    ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor(runnable -> {
      Thread thread = new Thread(runnable, "fleet-fallback-sampler");
      thread.setDaemon(true);
      return thread;
    });
    sampler.scheduleAtFixedRate(this::sample, 0, FALLBACK_SAMPLE.toMillis(), TimeUnit.MILLISECONDS);
    long[] steadyStart;
    long[] steadyEnd;
    int[] waitsAtStart;
    int[] waitsAtEnd;
    try {
      sleepUntil(start, STEADY_FROM);
      steadyStart = mark();
      waitsAtStart = redisWaitsRecorded();
      sleepUntil(start, length);
      steadyEnd = mark();
      waitsAtEnd = redisWaitsRecorded();
    } finally {
      sampler.shutdownNow();
      stopping.set(true); // also when the run broke off: no worker may loop on after it
    }
    if (!ended.await(DRAIN.toMillis(), TimeUnit.MILLISECONDS)) {
      cutting.set(true); // what throws from here on was cancelled by us, not failed
      instances.forEach(FleetInstance::cancelAll);
      if (!ended.await(5, TimeUnit.SECONDS)) {
        workers.forEach(Thread::interrupt);
        ended.await(5, TimeUnit.SECONDS);
      }
    }
    boolean anyShared = instances.stream().anyMatch(FleetInstance::isShared);
    return new InstanceReport(ok.get(), refusedToCaller.get(), failed.get(), cut.get(),
        durations.nanos(), steadyRedisWaits(waitsAtStart, waitsAtEnd), roundTrips(),
        steadyEnd[0] - steadyStart[0], steadyEnd[1] - steadyStart[1],
        anyShared ? samples.get() : 0, fallingBack.get(), List.copyOf(failures));
  }

  private void sample() {
    for (FleetInstance instance : instances) {
      samples.incrementAndGet();
      if (instance.isFallingBack()) {
        fallingBack.incrementAndGet();
      }
    }
  }

  /** One worker: a call, then the next, until the run stops. */
  private void loop(FleetInstance instance) {
    while (!stopping.get()) {
      long start = System.nanoTime();
      try (Response response = instance.client().newCall(request).execute()) {
        response.body().bytes(); // read it all, so the connection goes back to the pool
        (response.isSuccessful() ? ok : refusedToCaller).incrementAndGet();
        durations.add(System.nanoTime() - start);
      } catch (IOException | RuntimeException e) {
        if (cutting.get()) {
          cut.incrementAndGet();
          return;
        }
        failed.incrementAndGet();
        durations.add(System.nanoTime() - start);
        if (failures.size() < InstanceReport.FAILURES_KEPT) {
          failures.add(e.getClass().getSimpleName() + ": " + e.getMessage());
        }
      }
    }
  }

  /** Calls ended and Redis round trips now. */
  private long[] mark() {
    return new long[] {ok.get() + refusedToCaller.get() + failed.get(), roundTrips()};
  }

  /** How many Redis waits each instance has recorded so far. */
  private int[] redisWaitsRecorded() {
    return instances.stream().mapToInt(FleetInstance::redisWaitsRecorded).toArray();
  }

  /** The Redis waits the instances recorded between two counts, in nanoseconds. */
  private long[] steadyRedisWaits(int[] from, int[] to) {
    return IntStream.range(0, instances.size()) // each instance's waits are in the order recorded
        .mapToObj(i -> Arrays.stream(instances.get(i).redisWaitsNanos(), from[i], to[i]))
        .flatMapToLong(waits -> waits)
        .toArray();
  }

  private long roundTrips() {
    return instances.stream().mapToLong(FleetInstance::roundTrips).sum();
  }

  static void sleepUntil(long start, Duration at) throws InterruptedException {
    long left = start + at.toNanos() - System.nanoTime();
    if (left > 0) {
      TimeUnit.NANOSECONDS.sleep(left);
    }
  }
}
