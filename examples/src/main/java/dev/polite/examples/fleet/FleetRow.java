package dev.polite.examples.fleet;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * One measured row of {@code fleet}: P instances of C threads each, in one {@link FleetMode},
 * against the server speaking one header style.
 *
 * @param headers the server's header style ({@code ietf}, {@code none})
 * @param mode alone, shared, or shared with Redis killed
 * @param instances P, the isolated client instances
 * @param threads C, worker threads per instance
 * @param seconds the measured run, D (calls still running then are let finish)
 * @param ok calls answered 2xx
 * @param refusedToCaller calls answered otherwise (a 429 polite handed back when it gave up)
 * @param failed calls that threw while the run was on: none may fail because Redis did
 * @param cut calls cancelled at the end because they were still waiting after the drain
 * @param admitted requests the server admitted, from its own stats
 * @param rejected requests the server refused (every attempt, retries included), from its stats
 * @param steadyShare admitted per second from the first second to D, over the limit (1.0 = 20/s)
 * @param roundTrips Redis commands sent by all instances over the whole row (0 alone)
 * @param roundTripsPerCall per call ended, over the whole row; null alone
 * @param steadyRoundTripsPerCall per call ended from the first second to D; null alone
 * @param p99Millis the 99th percentile of a call's duration, ms
 * @param redisWaitP99Millis the 99th percentile over every call from the first second to D of the
 *     time Redis held it back (0 for a call that went on its lease, or whose units fell due after
 *     the answer: {@code onCallWaited}): the latency the fleet adds, ms; null alone
 * @param fallbackShare the share of instance-time (sampled every 50 ms over 0 to D) spent pacing
 *     alone because Redis did not answer in time; null alone
 * @param outage for the killed row, when Redis was killed and back, such as {@code 4.0-7.0 s}
 * @param failures the first few failures' messages, for the reader to see why
 */
record FleetRow(String headers, FleetMode mode, int instances, int threads, double seconds, long ok,
    long refusedToCaller, long failed, long cut, long admitted, long rejected, double steadyShare,
    long roundTrips, @Nullable Double roundTripsPerCall, @Nullable Double steadyRoundTripsPerCall,
    double p99Millis, @Nullable Double redisWaitP99Millis, @Nullable Double fallbackShare, @Nullable String outage, List<String> failures) {

  FleetRow {
    failures = List.copyOf(failures);
  }

  /** Calls that ended on their own, whatever the answer. */
  long calls() {
    return ok + refusedToCaller + failed;
  }

  /** Rejections as a share of the server's decisions on this row. */
  double rejectedShare() {
    long decisions = admitted + rejected;
    return decisions == 0 ? 0 : rejected / (double) decisions;
  }

  /** Whether {@code other} is measured on the same footing: same headers, instances and threads. */
  boolean sameFootingAs(FleetRow other) {
    return headers.equals(other.headers) && instances == other.instances && threads == other.threads;
  }

  /** The table's header line, matching {@link #line}. */
  static String heading() {
    return String.format(Locale.ROOT, "  %-7s %2s  %-21s %6s %6s %7s %14s %6s %8s %9s %8s %9s %9s  %s",
        "headers", "P", "row", "calls", "ok", "failed", "rejected", "share", "rt/call", "fallback", "p99 ms",
        "vs alone", "redis p99", "targets");
  }

  /**
   * The row as a table line; {@code alone} is the alone row of the same footing (for the p99's
   * difference), and {@code misses} what the row missed of its targets.
   */
  String line(@Nullable FleetRow alone, @Nullable List<String> misses) {
    String rejections = String.format(Locale.ROOT, "%d (%.1f%%)", rejected, rejectedShare() * 100);
    String rt = steadyRoundTripsPerCall == null ? "-" : String.format(Locale.ROOT, "%.3f", steadyRoundTripsPerCall);
    String fallback = fallbackShare == null ? "-" : String.format(Locale.ROOT, "%.0f%%", fallbackShare * 100);
    String delta = alone == null || alone == this ? "-" : String.format(Locale.ROOT, "%+.0f", p99Millis - alone.p99Millis);
    String redis = redisWaitP99Millis == null ? "-" : String.format(Locale.ROOT, "%.1f", redisWaitP99Millis);
    String verdict = misses == null ? "-" : misses.isEmpty() ? "met" : "missed: " + String.join("; ", misses);
    return String.format(Locale.ROOT, "  %-7s %2d  %-21s %6d %6d %7d %14s %5.0f%% %8s %9s %8.0f %9s %9s  %s",
        headers, instances, mode.label(), calls(), ok, failed, rejections, steadyShare * 100, rt, fallback,
        p99Millis, delta, redis, verdict);
  }

  /** The row's fields for JSON, with the same extras as {@link #line}. */
  Map<String, @Nullable Object> fields(@Nullable FleetRow alone, @Nullable List<String> misses) {
    Map<String, @Nullable Object> fields = new LinkedHashMap<>();
    fields.put("headers", headers);
    fields.put("mode", mode.label());
    fields.put("instances", instances);
    fields.put("threads", threads);
    fields.put("seconds", seconds);
    fields.put("calls", calls());
    fields.put("ok", ok);
    fields.put("refused_to_caller", refusedToCaller);
    fields.put("failed", failed);
    fields.put("cut", cut);
    fields.put("admitted", admitted);
    fields.put("rejected", rejected);
    fields.put("rejected_share", round(rejectedShare(), 4));
    fields.put("throughput_share", round(steadyShare, 3));
    fields.put("round_trips", roundTrips);
    fields.put("round_trips_per_call", roundTripsPerCall == null ? null : round(roundTripsPerCall, 4));
    fields.put("steady_round_trips_per_call", steadyRoundTripsPerCall == null ? null : round(steadyRoundTripsPerCall, 4));
    fields.put("redis_fallback_share", fallbackShare == null ? null : round(fallbackShare, 3));
    fields.put("p99_ms", round(p99Millis, 1));
    fields.put("p99_vs_alone_ms", alone == null || alone == this ? null : round(p99Millis - alone.p99Millis, 1));
    fields.put("redis_wait_p99_ms", redisWaitP99Millis == null ? null : round(redisWaitP99Millis, 2));
    fields.put("redis_outage", outage);
    fields.put("targets_missed", misses);
    fields.put("failures", failures);
    return fields;
  }

  private static double round(double value, int places) {
    double scale = Math.pow(10, places);
    return Math.round(value * scale) / scale;
  }
}
