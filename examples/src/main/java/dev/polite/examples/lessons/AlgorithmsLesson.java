package dev.polite.examples.lessons;

import dev.polite.demo.Algorithm;
import dev.polite.demo.internal.AlgorithmComparison;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code lessons algorithms}: every algorithm the demo server has ({@link Algorithm#values()}),
 * configured as 10 per 10 s (a bucket: 10, refilling 1 a second), on the reference's three traffic
 * patterns, and the most each admitted in any 10 s span beside the reference's table "Choosing
 * between them". The limiters are the demo server's own classes ({@code MemoryStore.newLimiter}),
 * driven on a virtual clock: the same decisions the server makes, with no waiting.
 *
 * <p>Usage: {@code java -jar polite-examples.jar lessons algorithms [--json]}
 */
@Command(name = "algorithms",
    description = {"The algorithms at 10 per 10 s on three traffic patterns (ten at 9.9 s and ten at 10.0 s; "
        + "a burst of 20; ten at 9.9 s then ten a second for 20 s): the most admitted in any 10 s, "
        + "from the demo server's limiter classes on a virtual clock, beside the reference's table.",
        "With --json: one object per algorithm."},
    usageHelpAutoWidth = true)
final class AlgorithmsLesson implements Callable<Integer> {

  /**
   * The reference's "most in any 10 s" column. It has no leaky meter row: it says the meter
   * accepts exactly the token bucket's requests, so its figure is the token bucket's.
   */
  static final Map<Algorithm, Integer> REFERENCE = new EnumMap<>(Map.of(
      Algorithm.TOKEN_BUCKET, 19,
      Algorithm.GCRA, 19,
      Algorithm.LEAKY_QUEUE, 10,
      Algorithm.FIXED_WINDOW, 20,
      Algorithm.SLIDING_LOG, 10,
      Algorithm.SLIDING_COUNTER, 19));

  @Mixin
  LessonOptions options;

  @Override
  public Integer call() {
    LessonOutput out = options.output();
    out.text("algorithms: 10 per 10 s (a bucket holds 10, refilling 1/s), the demo server's limiter classes on a virtual clock");
    out.text("most admitted in any 10 s, on each traffic pattern:");
    out.text(String.format(Locale.ROOT, "%-16s%17s%13s%19s%9s   %s", "algorithm", "window boundary", "burst of 20",
        "ten then a stream", "worst", "reference"));
    for (Algorithm algorithm : Algorithm.values()) {
      Map<String, Integer> most = AlgorithmComparison.mostInAnyWindow(algorithm);
      int worst = most.values().stream().max(Integer::compare).orElseThrow();
      @Nullable Integer reference = REFERENCE.get(algorithm);
      String referenceText = reference != null ? reference.toString()
          : algorithm == Algorithm.LEAKY_METER ? "- (the text: the token bucket's requests, so 19)" : "-";
      out.row(String.format(Locale.ROOT, "%-16s%17d%13d%19d%9d   %s", algorithm.cliName(),
              most.get("window boundary"), most.get("burst of 20"), most.get("ten then a stream"), worst, referenceText),
          LessonOutput.fields("lesson", "algorithms", "algorithm", algorithm.cliName(),
              "window_boundary", most.get("window boundary"), "burst_of_20", most.get("burst of 20"),
              "ten_then_a_stream", most.get("ten then a stream"), "most_in_any_10s", worst,
              "reference", reference));
    }
    out.text("");
    out.text("Only the fixed window lets the second ten through at the boundary (2x the limit). The buckets and the");
    out.text("sliding counter admit their 10 and then the stream's refills (10 + 9); the sliding log and the leaky queue");
    out.text("never more than 10 in any 10 s (the queue by delaying: it serves what it admits one a second).");
    return 0;
  }
}
