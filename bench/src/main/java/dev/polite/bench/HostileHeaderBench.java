package dev.polite.bench;

import dev.polite.HeaderLines;
import dev.polite.RateLimitHeaders;
import dev.polite.RateLimitSignals;
import java.util.concurrent.TimeUnit;
import okhttp3.Headers;
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
 * A hostile server's structured fields through polite's header parser: one 250 KiB value of
 * distinct members, the size OkHttp lets through (its HTTP/1 reader allows 256 KiB of headers),
 * in each shape that once made a parse step scan what it had already read (issue 27, item 3).
 * The parse runs while the call holds its key's permit, so its cost is every caller's wait.
 * Sampled, as {@link HeaderParseBench}: {@code p0.50} is the median parse; the goal is under
 * 5 ms for each shape, with {@link HeaderParseBench}'s ordinary responses as fast as before.
 *
 * <ul>
 *   <li>{@code dictionary}: {@code RateLimit: k0=1, k1=1, ...}, which is no era E List, so it is
 *       read again as an era D Dictionary, whose duplicate keys must be found;
 *   <li>{@code namedList}: {@code RateLimit: "p0";r=1;t=1, "p1";r=1;t=1, ...}, each item paired
 *       with the policy of its name;
 *   <li>{@code policies}: {@code RateLimit-Policy: "p0";q=1;w=1, ...}, every item a policy kept;
 *   <li>{@code legacy}: {@code RateLimit-Limit: 0, 1;w=1, 100000, 2;w=1, 100001, ...}, each bare
 *       number checked against the policies before it;
 *   <li>{@code params}: {@code RateLimit: "a";r=1;k0;k1;...}, one item with every parameter;
 *   <li>{@code longNames}: {@code RateLimit: "p0xxx...";r=1;t=1, ...}, 1,000 items (within the
 *       1,024 members RFC 9651 section 3.1 asks parsers to take) whose names fill the 250 KiB.
 * </ul>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms512m", "-Xmx512m"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class HostileHeaderBench {
  /** 250 KiB: just under OkHttp's 256 KiB of header lines per response. */
  static final int SIZE = 250 * 1024;

  @Param({"dictionary", "namedList", "policies", "legacy", "params", "longNames"})
  public String shape;

  private final RateLimitHeaders parser = RateLimitHeaders.standard();
  private HeaderLines headers;

  @Setup(Level.Trial)
  public void setUp() {
    headers = Responses.lines(of(shape));
    String value = headers.value(headers.size() - 1);
    if (value.length() < SIZE) throw new IllegalStateException(shape + " is " + value.length() + " chars");
  }

  @Benchmark
  public RateLimitSignals parse() {
    return parser.parse(200, headers, Responses.NOW_MILLIS);
  }

  static Headers of(String shape) {
    Headers.Builder h = new Headers.Builder().add("Date", Responses.DATE).add("Content-Type", "application/json");
    return switch (shape) {
      case "dictionary" -> h.add("RateLimit", members(k -> "k" + k + "=1")).build();
      case "namedList" -> h.add("RateLimit", members(k -> "\"p" + k + "\";r=1;t=1")).build();
      case "policies" -> h.add("RateLimit-Policy", members(k -> "\"p" + k + "\";q=1;w=1")).build();
      case "legacy" -> h.add("RateLimit-Limit",
          "0, " + members(k -> k % 2 == 0 ? (k / 2 + 1) + ";w=1" : String.valueOf(100_000 + k / 2))).build();
      case "params" -> {
        StringBuilder b = new StringBuilder("\"a\";r=1");
        for (int k = 0; b.length() < SIZE; k++) b.append(";k").append(k);
        yield h.add("RateLimit", b.toString()).build();
      }
      case "longNames" -> {
        String pad = "x".repeat(SIZE / 1000 - 16);
        StringBuilder b = new StringBuilder(SIZE + 32);
        for (int k = 0; k < 1000 || b.length() < SIZE; k++) {
          if (k > 0) b.append(", ");
          b.append("\"p").append(k).append(pad).append("\";r=1;t=1");
        }
        yield h.add("RateLimit", b.toString()).build();
      }
      default -> throw new IllegalArgumentException("shape: " + shape);
    };
  }

  /** Members {@code member(0), member(1), ...} joined by {@code ", "} until the value is SIZE long. */
  private static String members(java.util.function.IntFunction<String> member) {
    StringBuilder b = new StringBuilder(SIZE + 32);
    for (int k = 0; b.length() < SIZE; k++) {
      if (k > 0) b.append(", ");
      b.append(member.apply(k));
    }
    return b.toString();
  }
}
