package dev.polite.examples.fleet;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * Issues 11's and 24's targets for the shared rows, checked against what a row measured.
 * {@code shared}: no rejection when the server sends its headers, at most max(3, 5 % of the
 * server's decisions) when it sends none; throughput at least 90 % of the limit; at most 0.25
 * Redis round trips per call at steady state; a p99 at most 5 ms over the alone row's (issue 24:
 * the fleet adds no delay a caller would notice). {@code shared, Redis killed}: no call fails,
 * and rejections stay within twice the alone row's share. The alone rows have no targets: they
 * show the gap.
 *
 * <p>Usage: {@code List<String> misses = FleetTargets.misses(row, aloneRow); // empty: all met}
 */
final class FleetTargets {
  static final double MIN_SHARE = 0.90;
  static final double MAX_ROUND_TRIPS_PER_CALL = 0.25;
  static final int REJECTIONS_FLOOR = 3;
  static final double REJECTIONS_SHARE_WITHOUT_HEADERS = 0.05;
  static final double MAX_P99_OVER_ALONE_MILLIS = 5;

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
        double p99OverAlone = alone == null ? 0 : row.p99Millis() - alone.p99Millis();
        if (p99OverAlone > MAX_P99_OVER_ALONE_MILLIS) {
          misses.add(String.format(Locale.ROOT, "p99 %+.0f ms over alone > %.0f", p99OverAlone,
              MAX_P99_OVER_ALONE_MILLIS));
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
