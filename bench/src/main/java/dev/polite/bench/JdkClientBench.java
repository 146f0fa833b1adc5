package dev.polite.bench;

import dev.failsafe.Failsafe;
import dev.failsafe.FailsafeExecutor;
import dev.failsafe.RateLimiter;
import dev.failsafe.RetryPolicy;
import dev.polite.jdk.PoliteHttpClient;
import java.io.IOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandler;
import java.net.http.HttpResponse.BodyHandlers;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
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
 * What the JDK client's adapter itself costs per call, as {@link InterceptorBench} measures the
 * OkHttp interceptor: a {@link CannedHttpClient} answers a prebuilt 200 (IETF headers advertising
 * 1e9 per second, so nobody ever waits) with no network, through
 * <ul>
 *   <li>{@code bare}: the canned client's {@code send} alone, the baseline;
 *   <li>{@code polite}: {@link PoliteHttpClient#wrap} (every default) around it;
 *   <li>{@code failsafe}: Failsafe's {@code RetryPolicy} (429/503 retried, 4 attempts, backoff
 *       500 ms to 30 s) composed by hand with its {@code RateLimiter} at the advertised rate,
 *       around the same {@code send}.
 * </ul>
 * Sampled, so the score's {@code p0.50} is the median call; polite's cost is polite minus bare.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms512m", "-Xmx512m"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class JdkClientBench {
  private CannedHttpClient canned;
  private PoliteHttpClient polite;
  private HttpRequest request;
  private final BodyHandler<Void> discarding = BodyHandlers.discarding();
  private FailsafeExecutor<HttpResponse<Void>> failsafe;

  @Setup(Level.Trial)
  public void setUp() throws Exception {
    canned = new CannedHttpClient(InterceptorBench.QUOTA);
    request = canned.request();
    polite = PoliteHttpClient.wrap(canned);
    RetryPolicy<HttpResponse<Void>> retry = RetryPolicy.<HttpResponse<Void>>builder()
        .handleResultIf(r -> r.statusCode() == 429 || r.statusCode() == 503)
        .withMaxAttempts(4)
        .withBackoff(Duration.ofMillis(500), Duration.ofSeconds(30))
        .build();
    RateLimiter<HttpResponse<Void>> limiter = RateLimiter.<HttpResponse<Void>>smoothBuilder(
            InterceptorBench.QUOTA, Duration.ofSeconds(1))
        .withMaxWaitTime(Duration.ofSeconds(60))
        .build();
    failsafe = Failsafe.with(retry).compose(limiter);

    // Every path must answer the canned 200, or the benchmark measures something else. Checked
    // once each, not in a loop: thousands of calls of the other paths in this fork would teach
    // the JIT their types at the call sites they share, and the measured path would run on
    // polluted profiles no application has (each uses one of them).
    HttpResponse<Void> answer = bare();
    if (bare() != answer || polite() != answer || failsafe() != answer) {
      throw new IllegalStateException("a client did not pass the canned answer through");
    }
  }

  @Benchmark
  public HttpResponse<Void> bare() throws IOException, InterruptedException {
    return canned.send(request, discarding);
  }

  @Benchmark
  public HttpResponse<Void> polite() throws IOException, InterruptedException {
    return polite.send(request, discarding);
  }

  @Benchmark
  public HttpResponse<Void> failsafe() {
    return failsafe.get(() -> canned.send(request, discarding));
  }
}
