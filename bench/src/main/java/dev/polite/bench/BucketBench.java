package dev.polite.bench;

import dev.polite.TokenBucket;
import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.Bucket;
import io.github.resilience4j.ratelimiter.RateLimiterConfig;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The cost of one admission decision ("may I, now?") in polite's {@link TokenBucket} and in each
 * peer, configured with the same rate, in one thread ({@code BucketBench}) and with two threads
 * sharing one limiter ({@link BucketBenchContended}).
 *
 * <p>Two regimes ({@code @Param regime}):
 * <ul>
 *   <li>{@code admit}: 1e9 permits per second, burst of one second's worth; every call is let
 *       through, so this is the cost of the happy path (read the clock, refill, take).
 *   <li>{@code reject}: one permit per 1000 s, burst 1, drained in setup; every call is refused,
 *       the cost of saying no (read the clock, find nothing to refill, refuse).
 * </ul>
 *
 * <p>Each limiter reads its own clock, as it would in use: polite is handed
 * {@code System.nanoTime()}, Guava, Resilience4j and Failsafe read {@code System.nanoTime()}
 * themselves, Bucket4j reads its default time meter ({@code System.currentTimeMillis()}).
 * Resilience4j's limiter is a refreshed-per-period counter (a fixed window), Failsafe's is its
 * smooth limiter, Guava's is {@code SmoothBursty} (one second of burst), Bucket4j's a greedy
 * token bucket: the same rate, each in its own model.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms512m", "-Xmx512m"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Threads(1)
public class BucketBench {
  /** Admit: a huge rate. Reject: a tiny one, drained. */
  @Param({"admit", "reject"})
  public String regime;

  private TokenBucket polite;
  private com.google.common.util.concurrent.RateLimiter guava;
  private Bucket bucket4j;
  private io.github.resilience4j.ratelimiter.RateLimiter resilience4j;
  private dev.failsafe.RateLimiter<Object> failsafe;

  @Setup(Level.Trial)
  public void setUp() {
    boolean admit = switch (regime) {
      case "admit" -> true;
      case "reject" -> false;
      default -> throw new IllegalArgumentException("regime: " + regime);
    };
    // The same rate for all: permits per period, with a burst of one period's worth.
    long permits = admit ? 1_000_000_000L : 1L;
    Duration period = admit ? Duration.ofSeconds(1) : Duration.ofSeconds(1000);
    double perSecond = permits / (double) period.toSeconds();

    polite = TokenBucket.full(perSecond, permits, System.nanoTime());
    guava = com.google.common.util.concurrent.RateLimiter.create(perSecond);
    bucket4j = Bucket.builder()
        .addLimit(Bandwidth.builder().capacity(permits).refillGreedy(permits, period).build())
        .build();
    resilience4j = io.github.resilience4j.ratelimiter.RateLimiter.of("bench",
        RateLimiterConfig.custom()
            .limitForPeriod((int) permits)
            .limitRefreshPeriod(period)
            .timeoutDuration(Duration.ZERO)
            .build());
    failsafe = dev.failsafe.RateLimiter.smoothBuilder(permits, period).build();

    if (!admit) {
      drain();
    }
  }

  private void drain() {
    int guard = 0;
    while (polite.tryAcquire(1, System.nanoTime())) guard++;
    while (guava.tryAcquire()) guard++;
    while (bucket4j.tryConsume(1)) guard++;
    while (resilience4j.acquirePermission()) guard++;
    while (failsafe.tryAcquirePermit()) guard++;
    if (guard > 10) {
      throw new IllegalStateException("a limiter admitted " + guard + " calls at 1 per 1000 s");
    }
    // Every limiter must now refuse; a benchmark of the wrong path would measure nothing useful.
    if (polite.tryAcquire(1, System.nanoTime()) || guava.tryAcquire() || bucket4j.tryConsume(1)
        || resilience4j.acquirePermission() || failsafe.tryAcquirePermit()) {
      throw new IllegalStateException("a drained limiter still admits");
    }
  }

  /**
   * The clock alone, {@code System.nanoTime()}: the floor of every decision above but
   * Bucket4j's, which reads {@code System.currentTimeMillis()}. No limiter that reads it once
   * per decision can be faster than this, so a ratio between two of them is bounded by how
   * little of their time is not the clock.
   */
  @Benchmark
  public long clock() {
    return System.nanoTime();
  }

  @Benchmark
  public boolean polite() {
    return polite.tryAcquire(1, System.nanoTime());
  }

  @Benchmark
  public boolean guava() {
    return guava.tryAcquire();
  }

  @Benchmark
  public boolean bucket4j() {
    return bucket4j.tryConsume(1);
  }

  @Benchmark
  public boolean resilience4j() {
    return resilience4j.acquirePermission();
  }

  @Benchmark
  public boolean failsafe() {
    return failsafe.tryAcquirePermit();
  }
}
