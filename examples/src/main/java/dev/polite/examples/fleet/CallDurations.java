package dev.polite.examples.fleet;

import java.util.Arrays;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * How long each call of a row took, from {@code execute()} to its answer read, in nanoseconds,
 * from every worker thread. A row makes a few hundred calls (the limit is 20 a second), so every
 * duration is kept and the percentile is exact rather than estimated.
 *
 * <p>Usage: {@code durations.add(System.nanoTime() - start); ... durations.percentileMillis(99)}
 */
final class CallDurations {
  private final ConcurrentLinkedQueue<Long> nanos = new ConcurrentLinkedQueue<>();

  /** Durations recorded elsewhere (a child's report), in nanoseconds. */
  static CallDurations of(long[] durationsNanos) {
    CallDurations durations = new CallDurations();
    for (long nanos : durationsNanos) {
      durations.add(nanos);
    }
    return durations;
  }

  /** Records one call's duration. */
  void add(long durationNanos) {
    nanos.add(durationNanos);
  }

  /** Every duration recorded, in nanoseconds, for a child process to send its parent. */
  long[] nanos() {
    return nanos.stream().mapToLong(Long::longValue).toArray();
  }

  /** How many calls were recorded. */
  int count() {
    return nanos.size();
  }

  /**
   * The {@code percentile}th duration in milliseconds (nearest rank: the smallest duration at or
   * above which that share of the calls lie), or 0 when no call was recorded.
   */
  double percentileMillis(double percentile) {
    return percentileMillisAmong(percentile, count());
  }

  /**
   * The {@code percentile}th of {@code calls} calls in milliseconds, where the calls beyond those
   * recorded took no time (a wait only some calls had), or 0 when none is recorded. Nearest rank,
   * as {@link #percentileMillis}; with more recorded than {@code calls}, over those recorded.
   */
  double percentileMillisAmong(double percentile, long calls) {
    long[] sorted = nanos();
    if (sorted.length == 0) {
      return 0;
    }
    Arrays.sort(sorted);
    long all = Math.max(calls, sorted.length);
    long rank = (long) Math.ceil(percentile / 100.0 * all); // in all, the unrecorded zeros first
    long index = rank - 1 - (all - sorted.length);
    return index < 0 ? 0 : sorted[(int) Math.min(sorted.length - 1, index)] / 1e6;
  }
}
