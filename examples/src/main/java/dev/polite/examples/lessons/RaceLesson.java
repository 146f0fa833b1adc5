package dev.polite.examples.lessons;

import dev.polite.demo.Algorithm;
import dev.polite.demo.DemoServer;
import dev.polite.demo.DemoServerConfig;
import dev.polite.demo.internal.Policy;
import dev.polite.demo.internal.RedisStore;
import dev.polite.examples.LocalRedis;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import redis.clients.jedis.Jedis;

/**
 * {@code lessons race}: check-then-act on a real Redis. First twenty threads race for ten tokens,
 * five times, with GET, check, SET (a number that wobbles) and with the demo server's Lua script
 * ({@link RedisStore}, token bucket: 10 every time). Then the race's multiplier measured: a client
 * sending at 100, 1,000 and 3,000 requests a second through a {@link DelayingProxy} that adds 1 ms
 * and 5 ms to every round trip, admitting by GET, check, SET against a fixed window of 50 a second,
 * beside {@code limit x (1 + rate x round trip)}, both with the nominal figures and with the rate
 * driven and the round trip measured (on a small shared machine the client may not keep up with
 * the highest rate: the line says what it drove).
 *
 * <p>Usage: {@code java -jar polite-examples.jar lessons race [--json]}
 */
@Command(name = "race",
    description = {"Check-then-act on a real Redis: twenty threads racing for ten tokens with GET, check, SET and with "
        + "the demo server's Lua script (five runs each); then the admitted count of a GET-check-SET fixed window "
        + "(50 per second) at 100, 1,000 and 3,000 requests a second with 1 ms and 5 ms added to each round trip by a "
        + "delaying proxy, beside limit x (1 + rate x round trip). Starts redis-server from the PATH.",
        "With --json: one object per measured thing, the reference's figure in 'reference'."},
    usageHelpAutoWidth = true)
final class RaceLesson implements Callable<Integer> {
  private static final int THREADS = 20;
  private static final int TOKENS = 10;
  /** The multiplier's fixed window: 50 a second, so every rate offers more than the limit. */
  private static final int WINDOW_LIMIT = 50;
  private static final long SECOND = 1_000_000_000L;
  private static final int CONNECTIONS = 64;

  @Spec
  CommandSpec spec;

  @Mixin
  LessonOptions options;

  @Option(names = "--runs", paramLabel = "N", defaultValue = "5",
      description = "Runs of the twenty threads, 1 to 100 (default: ${DEFAULT-VALUE}).")
  int runs;

  @Option(names = "--windows", paramLabel = "N", defaultValue = "3",
      description = "One-second windows measured per rate and round trip, 1 to 30 (default: ${DEFAULT-VALUE}).")
  int windows;

  @Override
  public Integer call() throws Exception {
    if (runs < 1 || runs > 100) {
      throw new ParameterException(spec.commandLine(), "--runs must be 1 to 100, was " + runs);
    }
    if (windows < 1 || windows > 30) {
      throw new ParameterException(spec.commandLine(), "--windows must be 1 to 30, was " + windows);
    }
    LessonOutput out = options.output();
    try (LocalRedis redis = LocalRedis.start()) {
      String version;
      try (Jedis jedis = new Jedis("127.0.0.1", redis.port())) {
        version = jedis.info("server").lines().filter(line -> line.startsWith("redis_version:"))
            .map(line -> line.substring("redis_version:".length()).strip()).findFirst().orElse("?");
      }
      out.text(String.format(Locale.ROOT, "%-60s reference: connected to Redis 7.0.15", "connected to Redis " + version));
      ExecutorService threads = Executors.newFixedThreadPool(THREADS);
      try (RedisStore lua = luaStore(redis)) {
        for (int run = 1; run <= runs; run++) {
          int naive = getThenSet(threads, redis, "race:tokens:" + run);
          int atomic = luaScript(threads, lua, "race-run-" + run);
          out.row(String.format(Locale.ROOT, "run %d  race, GET then SET: %2d of %d accepted (limit %d)   "
                  + "race, Lua script: %2d of %d accepted   reference: 20 of 20 / 10 of 20",
                  run, naive, THREADS, TOKENS, atomic, THREADS),
              LessonOutput.fields("lesson", "race", "measure", "twenty threads, ten tokens", "run", run,
                  "get_then_set", naive, "lua_script", atomic, "of", THREADS, "limit", TOKENS,
                  "reference_get_then_set", 20, "reference_lua_script", 10));
        }
      } finally {
        threads.shutdownNow();
      }
      out.text("");
      out.text(String.format(Locale.ROOT, "GET, check, SET against a fixed window of %d per second, %d windows per "
          + "line; admitted per window beside limit x (1 + rate x round trip):", WINDOW_LIMIT, windows));
      for (Duration delay : List.of(Duration.ofMillis(1), Duration.ofMillis(5))) {
        try (DelayingProxy proxy = DelayingProxy.start(redis.port(), delay)) {
          for (int rate : new int[] {100, 1_000, 3_000}) {
            multiplier(out, proxy, rate, delay, windows);
          }
        }
      }
    }
    return 0;
  }

  /**
   * The demo server's Redis store (token bucket, 10 per 10 s), its connections opened by one
   * warm-up decision under another key. A timeout longer than the server's default: twenty
   * connections opening at once on a busy machine must not fail open, or the lesson would show
   * an outage instead of the script.
   */
  private static RedisStore luaStore(LocalRedis redis) {
    DemoServerConfig config = DemoServer.builder().algorithm(Algorithm.TOKEN_BUCKET).limit(TOKENS)
        .window(Duration.ofSeconds(10)).store(redis.uri()).redisTimeout(Duration.ofMillis(500)).build();
    RedisStore store = RedisStore.open(config, Policy.of(config), System::nanoTime);
    store.acquire("warm-up", 1);
    return store;
  }

  /** Twenty threads, each with its own connection, GET the count, check it, SET it one lower. */
  private static int getThenSet(ExecutorService threads, LocalRedis redis, String key) throws Exception {
    try (Jedis setup = new Jedis("127.0.0.1", redis.port())) {
      setup.set(key, Integer.toString(TOKENS));
    }
    CountDownLatch ready = new CountDownLatch(THREADS);
    CountDownLatch go = new CountDownLatch(1);
    List<Future<Boolean>> results = new ArrayList<>();
    for (int i = 0; i < THREADS; i++) {
      results.add(threads.submit(() -> {
        try (Jedis jedis = new Jedis("127.0.0.1", redis.port())) {
          jedis.ping(); // connected before the start, so the race is the commands', not the connects'
          ready.countDown();
          go.await();
          int tokens = Integer.parseInt(jedis.get(key));
          if (tokens < 1) {
            return false;
          }
          jedis.set(key, Integer.toString(tokens - 1));
          return true;
        }
      }));
    }
    ready.await();
    go.countDown();
    int accepted = 0;
    for (Future<Boolean> result : results) {
      accepted += result.get() ? 1 : 0;
    }
    return accepted;
  }

  /** Twenty threads each ask the demo server's Redis store (one Lua script) for a token. */
  private static int luaScript(ExecutorService threads, RedisStore store, String key) throws Exception {
    CountDownLatch ready = new CountDownLatch(THREADS);
    CountDownLatch go = new CountDownLatch(1);
    List<Future<Boolean>> results = new ArrayList<>();
    for (int i = 0; i < THREADS; i++) {
      results.add(threads.submit(() -> {
        ready.countDown();
        go.await();
        return store.acquire(key, 1).allowed();
      }));
    }
    ready.await();
    go.countDown();
    int accepted = 0;
    for (Future<Boolean> result : results) {
      accepted += result.get() ? 1 : 0;
    }
    if (store.isDown()) {
      throw new IllegalStateException("the demo server's Redis store failed to reach Redis during the race");
    }
    return accepted;
  }

  /**
   * A client at {@code rate} requests a second for {@code windows} seconds, open loop (each
   * request starts on schedule, on its own worker and connection), each admitted by GET, check,
   * SET of its window's count through {@code proxy}. Arrivals are random (Poisson, seeded), as
   * independent callers' are: evenly spaced ones at 100 a second never land inside another's
   * round trip, so nothing would be hidden, where the formula is the average over random ones.
   */
  private static void multiplier(LessonOutput out, DelayingProxy proxy, int rate, Duration delay, int windows)
      throws Exception {
    BlockingQueue<Jedis> connections = new ArrayBlockingQueue<>(CONNECTIONS);
    ExecutorService workers = Executors.newFixedThreadPool(CONNECTIONS);
    AtomicIntegerArray admitted = new AtomicIntegerArray(windows);
    AtomicLong roundTripNanos = new AtomicLong();
    AtomicLong gets = new AtomicLong();
    AtomicLong lateNanos = new AtomicLong();
    String cell = "race:window:" + rate + ":" + delay.toMillis() + ":";
    long start;
    long sent = 0;
    try {
      for (int i = 0; i < CONNECTIONS; i++) {
        Jedis jedis = new Jedis("127.0.0.1", proxy.port());
        connections.add(jedis);
        jedis.ping();
      }
      start = System.nanoTime() + SECOND / 10;
      Random arrivals = new Random(42);
      List<Future<?>> requests = new ArrayList<>();
      for (long at = start; at < start + windows * SECOND;
          at += (long) (-Math.log(1 - arrivals.nextDouble()) * SECOND / rate)) {
        for (long wait = at - System.nanoTime(); wait > 0; wait = at - System.nanoTime()) {
          LockSupport.parkNanos(wait);
        }
        int window = (int) ((at - start) / SECOND);
        long scheduled = at;
        sent++;
        requests.add(workers.submit(() -> {
          Jedis jedis = connections.take();
          try {
            long asked = System.nanoTime();
            lateNanos.addAndGet(asked - scheduled);
            String stored = jedis.get(cell + window);
            roundTripNanos.addAndGet(System.nanoTime() - asked);
            gets.incrementAndGet();
            int count = stored == null ? 0 : Integer.parseInt(stored);
            if (count < WINDOW_LIMIT) {
              jedis.set(cell + window, Integer.toString(count + 1));
              admitted.incrementAndGet(window);
            }
          } finally {
            connections.add(jedis);
          }
          return null;
        }));
      }
      for (Future<?> request : requests) {
        request.get();
      }
    } finally {
      workers.shutdownNow();
      workers.awaitTermination(5, TimeUnit.SECONDS);
      connections.forEach(Jedis::close);
    }
    double perWindow = 0;
    for (int w = 0; w < windows; w++) {
      perWindow += admitted.get(w);
    }
    perWindow /= windows;
    double roundTrip = roundTripNanos.get() / 1e9 / Math.max(1, gets.get());
    double late = lateNanos.get() / 1e9 / Math.max(1, gets.get());
    double nominal = WINDOW_LIMIT * (1 + rate * delay.toNanos() / 1e9);
    double measured = WINDOW_LIMIT * (1 + rate * roundTrip);
    @Nullable Double reference = reference(rate, delay);
    // Requests that start late start in clumps, and a clump reads one stale count together: the
    // line says how late they were, and when later than the added round trip, that the machine
    // (two shared cores) did not keep the rate, so the rate was not driven honestly.
    String kept = String.format(Locale.ROOT, "; started %.2f ms late on average%s", late * 1e3,
        late > delay.toNanos() / 1e9 ? ": this machine did not keep the rate" : "");
    out.row(String.format(Locale.ROOT, "  %,5d/s, +%d ms: admitted %6.1f per window = %5.2fx the limit;"
            + " formula %5.2fx (%5.2fx with the measured round trip %.2f ms)   reference: %s%s",
            rate, delay.toMillis(), perWindow, perWindow / WINDOW_LIMIT, nominal / WINDOW_LIMIT,
            measured / WINDOW_LIMIT, roundTrip * 1e3, reference == null ? "-" : String.format(Locale.ROOT, "%.2fx", reference), kept),
        LessonOutput.fields("lesson", "race", "measure", "multiplier", "rate", rate, "added_round_trip_ms",
            delay.toMillis(), "limit", WINDOW_LIMIT, "sent", sent, "admitted_per_window", perWindow,
            "multiplier", round(perWindow / WINDOW_LIMIT), "formula", round(nominal / WINDOW_LIMIT),
            "measured_round_trip_ms", round(roundTrip * 1e3), "formula_measured", round(measured / WINDOW_LIMIT),
            "mean_start_late_ms", round(late * 1e3), "reference", reference));
  }

  /**
   * The reference's multipliers: the text's 1.1x (100/s, 1 ms), 2x (1,000/s, 1 ms) and 4x
   * (3,000/s, 1 ms), and its simulation's 604 a second against 100 (1,000/s, 5 ms).
   */
  private static @Nullable Double reference(int rate, Duration delay) {
    long ms = delay.toMillis();
    if (ms == 1) {
      return rate == 100 ? 1.1 : rate == 1_000 ? 2.0 : 4.0;
    }
    return rate == 1_000 ? 6.04 : null;
  }

  private static double round(double value) {
    return Math.round(value * 100) / 100.0;
  }
}
