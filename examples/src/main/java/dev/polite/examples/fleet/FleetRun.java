package dev.polite.examples.fleet;

import dev.polite.demo.Algorithm;
import dev.polite.demo.DemoServer;
import dev.polite.demo.HeaderStyle;
import dev.polite.demo.StatsSnapshot;
import dev.polite.examples.lessons.LocalRedis;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import okhttp3.Request;
import okhttp3.Response;
import org.jspecify.annotations.Nullable;
import redis.clients.jedis.Jedis;

/**
 * One row of {@code fleet}: a fresh demo server (token bucket, 20 a second, burst 20, so its
 * stats start at 0), P isolated {@link FleetInstance}s of C worker threads each, every thread
 * making GETs in a closed loop (the next call as soon as the last one ends) for D seconds. Then
 * no new call starts; those still running are let finish for up to {@link #DRAIN}, and the rest
 * are cancelled and counted as cut, not failed.
 *
 * <p>Steady state is the run from {@link #STEADY_FROM} to D: the starting burst and the first
 * answers (from which polite learns the limit) fall before it. Throughput and round trips per
 * call are measured over it; rejections and p99 over the whole row, drain included.
 *
 * <p>In the killed row, redis-server is killed (SIGKILL) at D/2 and started again, empty, on the
 * same port {@link #outage} later (3 s, or less for a run shorter than 7 s, so that it is back
 * half a second before the run ends).
 *
 * <p>Usage: {@code FleetRow row = new FleetRun(HeaderStyle.IETF, FleetMode.SHARED, 4, 4, Duration.ofSeconds(8), redis).run();}
 */
final class FleetRun {
  /** The server's limit: 20 a second. */
  static final long LIMIT = 20;
  /** The server's burst: 20. */
  static final long BURST = 20;
  /** Where steady state starts: after the first second, the starting burst spent. */
  static final Duration STEADY_FROM = Duration.ofSeconds(1);
  /** How long calls still running at D may take to finish before they are cancelled. */
  static final Duration DRAIN = Duration.ofSeconds(10);
  private static final Duration OUTAGE = Duration.ofSeconds(3);
  private static final Duration BACK_BEFORE_END = Duration.ofMillis(500);
  private static final int FAILURES_KEPT = 3;
  /** How often the instances are asked whether they pace alone for want of Redis. */
  private static final Duration FALLBACK_SAMPLE = Duration.ofMillis(50);

  private final HeaderStyle headers;
  private final FleetMode mode;
  private final int instances;
  private final int threads;
  private final Duration length;
  private final @Nullable LocalRedis redis;

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

  /**
   * @param redis the fleet's Redis; needed by the shared modes, unused alone
   * @throws IllegalArgumentException for a shared mode without Redis, or a run under 2 s
   */
  FleetRun(HeaderStyle headers, FleetMode mode, int instances, int threads, Duration length,
      @Nullable LocalRedis redis) {
    if (mode.shared() && redis == null) {
      throw new IllegalArgumentException(mode.label() + " needs a Redis");
    }
    if (length.compareTo(STEADY_FROM.multipliedBy(2)) < 0) {
      throw new IllegalArgumentException("a run must last at least " + STEADY_FROM.multipliedBy(2).toSeconds()
          + " s: " + length);
    }
    this.headers = headers;
    this.mode = mode;
    this.instances = instances;
    this.threads = threads;
    this.length = length;
    this.redis = redis;
  }

  /**
   * How long Redis is down in the killed row: 3 s, or less in a run shorter than 7 s, so that
   * Redis is back half a second before the run ends and the rejoining is measured too.
   */
  static Duration outage(Duration length) {
    Duration room = length.dividedBy(2).minus(BACK_BEFORE_END);
    return room.compareTo(OUTAGE) < 0 ? room : OUTAGE;
  }

  /** Runs the row and returns what it measured; takes D plus the drain. */
  FleetRow run() throws IOException, InterruptedException {
    if (mode.shared()) {
      emptyRedis(); // every shared row starts from a blank budget, as its server does
    }
    try (DemoServer server = DemoServer.builder().algorithm(Algorithm.TOKEN_BUCKET).limit(LIMIT)
        .window(Duration.ofSeconds(1)).burst(BURST).headers(headers).start()) {
      Request request = new Request.Builder().url(server.url() + "/api/items").get().build();
      List<FleetInstance> fleet = new ArrayList<>();
      try {
        for (int i = 0; i < instances; i++) {
          fleet.add(mode.shared() ? FleetInstance.shared(redisUri(), threads) : FleetInstance.alone(threads));
        }
        return measure(server, fleet, request);
      } finally {
        for (FleetInstance instance : fleet) {
          instance.close();
        }
      }
    }
  }

  private FleetRow measure(DemoServer server, List<FleetInstance> fleet, Request request)
      throws IOException, InterruptedException {
    CountDownLatch ended = new CountDownLatch(instances * threads);
    List<Thread> workers = new ArrayList<>();
    for (FleetInstance instance : fleet) {
      for (int t = 0; t < threads; t++) {
        Thread worker = new Thread(() -> {
          try {
            loop(instance, request);
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
    if (mode.shared()) {
      sampler.scheduleAtFixedRate(() -> sample(fleet), 0, FALLBACK_SAMPLE.toMillis(), TimeUnit.MILLISECONDS);
    }

    Mark steadyStart;
    Mark steadyEnd;
    String outage = null;
    try {
      sleepUntil(start, STEADY_FROM);
      steadyStart = mark(server, fleet, start);
      if (mode.killsRedis()) {
        Duration killAt = length.dividedBy(2);
        Duration backAt = killAt.plus(outage(length));
        sleepUntil(start, killAt);
        double killed = seconds(start);
        redis().kill();
        sleepUntil(start, backAt);
        redis().restart();
        outage = String.format(Locale.ROOT, "%.1f-%.1f s", killed, seconds(start));
      }
      sleepUntil(start, length);
      steadyEnd = mark(server, fleet, start);
    } finally {
      sampler.shutdownNow();
      stopping.set(true); // also when the run broke off: no worker may loop on after it
    }

    if (!ended.await(DRAIN.toMillis(), TimeUnit.MILLISECONDS)) {
      cutting.set(true); // what throws from here on was cancelled by us, not failed
      fleet.forEach(FleetInstance::cancelAll);
      if (!ended.await(5, TimeUnit.SECONDS)) {
        workers.forEach(Thread::interrupt);
        ended.await(5, TimeUnit.SECONDS);
      }
    }
    StatsSnapshot stats = server.stats();
    long roundTrips = roundTrips(fleet);
    long calls = ok.get() + refusedToCaller.get() + failed.get();
    double steadySeconds = steadyEnd.seconds - steadyStart.seconds;
    long steadyCalls = steadyEnd.calls - steadyStart.calls;
    return new FleetRow(headers.cliName(), mode, instances, threads, length.toMillis() / 1000.0, ok.get(),
        refusedToCaller.get(), failed.get(), cut.get(), stats.admitted(), stats.rejected(),
        (steadyEnd.admitted - steadyStart.admitted) / steadySeconds / LIMIT, roundTrips,
        mode.shared() ? perCall(roundTrips, calls) : null,
        mode.shared() ? perCall(steadyEnd.roundTrips - steadyStart.roundTrips, steadyCalls) : null,
        durations.percentileMillis(99), mode.shared() && samples.get() > 0 ? fallingBack.get() / (double) samples.get() : null,
        outage, List.copyOf(failures));
  }

  private void sample(List<FleetInstance> fleet) {
    for (FleetInstance instance : fleet) {
      samples.incrementAndGet();
      if (instance.isFallingBack()) {
        fallingBack.incrementAndGet();
      }
    }
  }

  /** One worker: a call, then the next, until the run stops. */
  private void loop(FleetInstance instance, Request request) {
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
        if (failures.size() < FAILURES_KEPT) {
          failures.add(e.getClass().getSimpleName() + ": " + e.getMessage());
        }
      }
    }
  }

  /** What the counters said at one moment, for the steady-state differences. */
  private record Mark(double seconds, long calls, long admitted, long roundTrips) {}

  private Mark mark(DemoServer server, List<FleetInstance> fleet, long start) {
    return new Mark(seconds(start), ok.get() + refusedToCaller.get() + failed.get(), server.stats().admitted(),
        roundTrips(fleet));
  }

  private static long roundTrips(List<FleetInstance> fleet) {
    return fleet.stream().mapToLong(FleetInstance::roundTrips).sum();
  }

  private static @Nullable Double perCall(long roundTrips, long calls) {
    return calls == 0 ? null : roundTrips / (double) calls;
  }

  private static double seconds(long start) {
    return (System.nanoTime() - start) / 1e9;
  }

  private static void sleepUntil(long start, Duration at) throws InterruptedException {
    long left = start + at.toNanos() - System.nanoTime();
    if (left > 0) {
      TimeUnit.NANOSECONDS.sleep(left);
    }
  }

  private LocalRedis redis() {
    if (redis == null) {
      throw new IllegalStateException(mode.label() + " needs a Redis");
    }
    return redis;
  }

  private String redisUri() {
    return redis().uri();
  }

  private void emptyRedis() {
    try (Jedis jedis = new Jedis("127.0.0.1", redis().port())) {
      jedis.flushAll();
    }
  }
}
