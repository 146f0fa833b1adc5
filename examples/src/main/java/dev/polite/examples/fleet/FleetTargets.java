package dev.polite.examples.fleet;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * Issues 11's and 24's targets for the shared rows, checked against what a row measured.
 * {@code shared}: no rejection when the server sends its headers, at most max(3, 5 % of the
 * server's decisions) when it sends none; throughput at least 90 % of the limit; at most 0.25
 * Redis round trips per call at steady state; the fleet adds at most 5 ms to a call's p99 (issue
 * 24: no delay a caller would notice). {@code shared, Redis killed}: no call fails,
 * and rejections stay within twice the alone row's share. The alone rows have no targets: they
 * show the gap.
 *
 * <h2>What the fleet adds to a call</h2>
 * Alone, a call waits for its key's pace and the server; in a fleet, also for Redis when its
 * lease is spent. That wait is the fleet's, and its p99 over every call (0 for a call that went
 * on its lease) is what is held to 5 ms ({@code RedisSharedState.Builder.onCallWaited} times it).
 * The p99 of a call's whole duration is no measure of it: in this saturated closed loop it is the
 * queue for the limit, seconds long, and two runs of the same row differ by more than a second.
 * It is still shown beside the alone row's, for the reader.
 *
 * <p>Usage: {@code List<String> misses = FleetTargets.misses(row, aloneRow); // empty: all met}
 */
final class FleetTargets {
  static final double MIN_SHARE = 0.90;
  static final double MAX_ROUND_TRIPS_PER_CALL = 0.25;
  static final int REJECTIONS_FLOOR = 3;
  static final double REJECTIONS_SHARE_WITHOUT_HEADERS = 0.05;
  static final double MAX_REDIS_WAIT_P99_MILLIS = 5;

  private FleetTargets() {}

  /**
   * What {@code row} missed, one phrase each (empty when it met them all), or null for a row with
   * no targets (alone).
   *
   * @param alone the alone row of the same headers and P, or null if it was not run
   */
  static @Nullable List<String> misses(FleetRow row, @Nullable FleetRow alone) {
    List<String> misses = new ArrayList<>();
    switch (row.mode()) {
      case SHARED -> {
        long allowed = row.headers().equals("none")
            ? Math.max(REJECTIONS_FLOOR, (long) Math.floor(REJECTIONS_SHARE_WITHOUT_HEADERS * (row.admitted() + row.rejected())))
            : 0;
        if (row.rejected() > allowed) {
          misses.add("rejected " + row.rejected() + " > " + allowed);
        }
        if (row.steadyShare() < MIN_SHARE) {
          misses.add(String.format(Locale.ROOT, "share %.0f%% < %.0f%%", row.steadyShare() * 100, MIN_SHARE * 100));
        }
        Double perCall = row.steadyRoundTripsPerCall();
        if (perCall == null || perCall > MAX_ROUND_TRIPS_PER_CALL) {
          misses.add(String.format(Locale.ROOT, "rt/call %s > %.2f",
              perCall == null ? "?" : String.format(Locale.ROOT, "%.3f", perCall), MAX_ROUND_TRIPS_PER_CALL));
        }
        Double waited = row.redisWaitP99Millis();
        if (waited == null || waited > MAX_REDIS_WAIT_P99_MILLIS) {
          misses.add(String.format(Locale.ROOT, "redis p99 %s ms > %.0f",
              waited == null ? "?" : String.format(Locale.ROOT, "%.1f", waited), MAX_REDIS_WAIT_P99_MILLIS));
        }
      }
      case SHARED_REDIS_KILLED -> {
        if (row.failed() > 0) {
          misses.add(row.failed() + " failed");
        }
        if (alone != null && row.rejectedShare() > 2 * alone.rejectedShare()) {
          misses.add(String.format(Locale.ROOT, "rejected %.1f%% > 2x alone's %.1f%%",
              row.rejectedShare() * 100, alone.rejectedShare() * 100));
        }
      }
      default -> {
        return null;
      }
    }
    return misses;
  }
}
