package dev.polite.bench;

import dev.failsafe.Failsafe;
import dev.failsafe.FailsafeExecutor;
import dev.failsafe.RateLimiter;
import dev.failsafe.RetryPolicy;
import dev.polite.okhttp.PoliteInterceptor;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import okhttp3.Request;
import okhttp3.Response;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What an interceptor itself costs per call: a {@link CannedChain} answers a prebuilt 200 with
 * IETF draft-11 quota headers at once, with no network, through
 * <ul>
 *   <li>{@code bare}: the chain alone, the baseline;
 *   <li>{@code polite}: {@link PoliteInterceptor#create()} (every default) around it;
 *   <li>{@code failsafe}: the "bolt Failsafe onto OkHttp" peer, Failsafe's {@code RetryPolicy}
 *       (429/503 retried, 4 attempts, backoff 500 ms to 30 s, as polite's defaults) composed by
 *       hand with its {@code RateLimiter} at the rate the headers advertise.
 * </ul>
 * The advertised quota (1e9 per second, nearly all remaining) never makes anyone wait, so this
 * measures bookkeeping: keying, permission, parsing the headers, learning, judging the answer.
 * Sampled, so the score's {@code p0.50} is the median call; polite's cost is polite minus bare.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms512m", "-Xmx512m"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class InterceptorBench {
  static final long QUOTA = 1_000_000_000L;

  private CannedChain chain;
  private Request request;
  private PoliteInterceptor polite;
  private FailsafeExecutor<Response> failsafe;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    chain = CannedChain.ietf200(QUOTA);
    request = chain.request();
    Response response = chain.proceed(request);

    polite = PoliteInterceptor.create();

    RetryPolicy<Response> retry = RetryPolicy.<Response>builder()
        .handleResultIf(r -> r.code() == 429 || r.code() == 503)
        .withMaxAttempts(4)
        .withBackoff(Duration.ofMillis(500), Duration.ofSeconds(30))
        .build();
    RateLimiter<Response> limiter = RateLimiter.<Response>smoothBuilder(QUOTA, Duration.ofSeconds(1))
        .withMaxWaitTime(Duration.ofSeconds(60))
        .build();
    failsafe = Failsafe.with(retry).compose(limiter);

    // Every path must answer the canned 200, or the benchmark measures something else. Checked
    // once each, not in a loop: thousands of calls of the other paths in this fork would teach
    // the JIT their types at the call sites they share, and the measured path would run on
    // polluted profiles no application has (each uses one of them).
    if (bare() != response || polite() != response || failsafe() != response) {
      throw new IllegalStateException("an interceptor did not pass the canned answer through");
    }
  }

  @Benchmark
  public Response bare() throws IOException {
    return chain.proceed(request);
  }

  @Benchmark
  public Response polite() throws IOException {
    return polite.intercept(chain);
  }

  @Benchmark
  public Response failsafe() {
    return failsafe.get(() -> chain.proceed(request));
  }
}
