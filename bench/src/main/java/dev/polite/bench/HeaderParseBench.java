package dev.polite.bench;

import dev.polite.HeaderLines;
import dev.polite.RateLimitHeaders;
import dev.polite.RateLimitSignals;
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
import org.openjdk.jmh.annotations.Warmup;

/**
 * One typical response of each dialect family through polite's header parser. Sampled (each
 * call timed on its own), so the score's {@code p0.50} is the median parse; run with
 * {@code -prof gc} for {@code gc.alloc.rate.norm}, the bytes allocated per parse.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms512m", "-Xmx512m"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class HeaderParseBench {
  @Param({"ietf", "ietfLegacy", "github", "openai", "anthropic", "discord", "shopify",
      "retryAfter429", "none"})
  public String dialect;

  private final RateLimitHeaders parser = RateLimitHeaders.standard();
  private int status;
  private HeaderLines headers;

  @Setup(Level.Trial)
  public void setUp() {
    Responses.Canned canned = Responses.of(dialect);
    status = canned.status();
    headers = Responses.lines(canned.headers());
    RateLimitSignals s = parser.parse(status, headers, Responses.NOW_MILLIS);
    // A benchmark of a response the parser does not understand would measure the wrong path.
    boolean expectsSignals = !dialect.equals("none");
    if (expectsSignals == RateLimitSignals.none().equals(s)) {
      throw new IllegalStateException(dialect + " parsed as " + s);
    }
  }

  @Benchmark
  public RateLimitSignals parse() {
    return parser.parse(status, headers, Responses.NOW_MILLIS);
  }
}
