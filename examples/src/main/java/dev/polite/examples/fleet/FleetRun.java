package dev.polite.examples.fleet;

import dev.polite.demo.Algorithm;
import dev.polite.demo.DemoServer;
import dev.polite.demo.HeaderStyle;
import dev.polite.demo.StatsSnapshot;
import dev.polite.examples.LocalRedis;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import okhttp3.Request;
import org.jspecify.annotations.Nullable;
import redis.clients.jedis.Jedis;

/**
 * One row of {@code fleet}: a fresh demo server (token bucket, 20 a second, burst 20, so its
 * stats start at 0) in this JVM, and P instances of C worker threads each, every thread making
 * GETs in a closed loop for D seconds ({@link InstanceLoad}), either as P child JVMs
 * ({@link ProcessFleet}) or in this one ({@link InProcessFleet}). The instances are started and
 * ready first; the clock starts for all together, and Redis is emptied just before it.
 *
 * <p>Steady state is the run from {@link #InstanceLoad.STEADY_FROM} to D: the starting burst and the first
 * answers (from which polite learns the limit) fall before it. Throughput and round trips per
 * call are measured over it; rejections and p99 over the whole row, drain included.
 *
 * <p>In the killed row, redis-server is killed (SIGKILL) at D/2 and started again, empty, on the
 * same port {@link #outage} later (3 s, or less for a run shorter than 7 s, so that it is back
 * half a second before the run ends).
 *
 * <p>Usage: {@code FleetRow row = new FleetRun(HeaderStyle.IETF, FleetMode.SHARED, 4, 4, Duration.ofSeconds(8), redis, launch).run();}
 */
final class FleetRun {
  /** The server's limit: 20 a second. */
  static final long LIMIT = 20;
  /** The server's burst: 20. */
  static final long BURST = 20;
  private static final Duration OUTAGE = Duration.ofSeconds(3);
  private static final Duration BACK_BEFORE_END = Duration.ofMillis(500);

  /**
   * How a row's instances run: as child JVMs with these options, or (null options) in this JVM,
   * and how long their shared state waits for Redis.
   *
   * @param jvmOptions the children's JVM options; null for the one-JVM mode
   * @param redisTimeout each instance's {@code RedisSharedState} timeout
   */
  record Launch(@Nullable List<String> jvmOptions, Duration redisTimeout) {
    /** polite-redis's default timeout. */
    static final Duration DEFAULT_REDIS_TIMEOUT = Duration.ofMillis(20);

    static Launch inProcess(Duration redisTimeout) {
      return new Launch(null, redisTimeout);
    }

    static Launch processes(List<String> jvmOptions, Duration redisTimeout) {
      return new Launch(List.copyOf(jvmOptions), redisTimeout);
    }

    boolean inProcess() {
      return jvmOptions == null;
    }
  }

  private final HeaderStyle headers;
  private final FleetMode mode;
  private final int instances;
  private final int threads;
  private final Duration length;
  private final @Nullable LocalRedis redis;
  private final Launch launch;

  /**
   * @param redis the fleet's Redis; needed by the shared modes, unused alone
   * @throws IllegalArgumentException for a shared mode without Redis, or a run under 2 s
   */
  FleetRun(HeaderStyle headers, FleetMode mode, int instances, int threads, Duration length,
      @Nullable LocalRedis redis, Launch launch) {
    if (mode.shared() && redis == null) {
      throw new IllegalArgumentException(mode.label() + " needs a Redis");
    }
    if (length.compareTo(InstanceLoad.STEADY_FROM.multipliedBy(2)) < 0) {
      throw new IllegalArgumentException("a run must last at least " + InstanceLoad.STEADY_FROM.multipliedBy(2).toSeconds()
          + " s: " + length);
    }
    this.headers = headers;
    this.mode = mode;
    this.instances = instances;
    this.threads = threads;
    this.length = length;
    this.redis = redis;
    this.launch = launch;
  }

  /**
   * How long Redis is down in the killed row: 3 s, or less in a run shorter than 7 s, so that
   * Redis is back half a second before the run ends and the rejoining is measured too.
   */
  static Duration outage(Duration length) {
    Duration room = length.dividedBy(2).minus(BACK_BEFORE_END);
    return room.compareTo(OUTAGE) < 0 ? room : OUTAGE;
  }

  /** Runs the row and returns what it measured; takes the start-up, D and the drain. */
  FleetRow run() throws IOException, InterruptedException {
    try (DemoServer server = DemoServer.builder().algorithm(Algorithm.TOKEN_BUCKET).limit(LIMIT)
        .window(Duration.ofSeconds(1)).burst(BURST).headers(headers).start();
        LaunchedFleet fleet = launch(server.url().toString())) {
      if (mode.shared()) {
        emptyRedis(); // every shared row starts from a blank budget, as its server does
      }
      return measure(server, fleet);
    }
  }

  /** Starts the row's instances and returns once they are ready. */
  LaunchedFleet launch(String serverUrl) throws IOException, InterruptedException {
    String redisUri = mode.shared() ? redis().uri() : null;
    List<String> options = launch.jvmOptions();
    if (options == null) {
      Request request = new Request.Builder().url(serverUrl + "/api/items").get().build();
      return new InProcessFleet(instances, threads, redisUri, launch.redisTimeout(), length, request);
    }
    return new ProcessFleet(instances, threads, redisUri, launch.redisTimeout(), length, serverUrl, options);
  }

  private FleetRow measure(DemoServer server, LaunchedFleet fleet) throws IOException, InterruptedException {
    long start = System.nanoTime();
    fleet.go();
    InstanceLoad.sleepUntil(start, InstanceLoad.STEADY_FROM);
    long admittedAtStart = server.stats().admitted();
    double startSeconds = seconds(start);
    String outage = null;
    if (mode.killsRedis()) {
      Duration killAt = length.dividedBy(2);
      Duration backAt = killAt.plus(outage(length));
      InstanceLoad.sleepUntil(start, killAt);
      double killed = seconds(start);
      redis().kill();
      InstanceLoad.sleepUntil(start, backAt);
      redis().restart();
      outage = String.format(Locale.ROOT, "%.1f-%.1f s", killed, seconds(start));
    }
    InstanceLoad.sleepUntil(start, length);
    long admittedAtEnd = server.stats().admitted();
    double steadySeconds = seconds(start) - startSeconds;
    InstanceReport report = fleet.await();
    StatsSnapshot stats = server.stats();
    CallDurations durations = CallDurations.of(report.durationsNanos());
    CallDurations redisWaits = CallDurations.of(report.steadyRedisWaitsNanos());
    return new FleetRow(headers.cliName(), mode, instances, threads, length.toMillis() / 1000.0, report.ok(),
        report.refusedToCaller(), report.failed(), report.cut(), stats.admitted(), stats.rejected(),
        (admittedAtEnd - admittedAtStart) / steadySeconds / LIMIT, report.roundTrips(),
        mode.shared() ? perCall(report.roundTrips(), report.calls()) : null,
        mode.shared() ? perCall(report.steadyRoundTrips(), report.steadyCalls()) : null,
        durations.percentileMillis(99),
        mode.shared() ? redisWaits.percentileMillisAmong(99, report.steadyCalls()) : null,
        mode.shared() && report.samples() > 0 ? report.fallingBack() / (double) report.samples() : null,
        outage, report.failures());
  }

  private static @Nullable Double perCall(long roundTrips, long calls) {
    return calls == 0 ? null : roundTrips / (double) calls;
  }

  private static double seconds(long start) {
    return (System.nanoTime() - start) / 1e9;
  }

  private LocalRedis redis() {
    if (redis == null) {
      throw new IllegalStateException(mode.label() + " needs a Redis");
    }
    return redis;
  }

  private void emptyRedis() {
    try (Jedis jedis = new Jedis("127.0.0.1", redis().port())) {
      jedis.flushAll();
    }
  }
}
