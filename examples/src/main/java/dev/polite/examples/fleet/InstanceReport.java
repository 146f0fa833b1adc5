package dev.polite.examples.fleet;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;

/**
 * What one or more fleet instances measured over a row, in the form a child process sends its
 * parent (one JSON line) and the parent sums: counts, every call's duration (so the fleet's p99
 * is exact over all of them, not a mean of percentiles), Redis round trips at the steady state's
 * two ends, and the fallback samples. Times are the instances' own, from the moment they were told
 * to go.
 *
 * @param ok calls answered 2xx
 * @param refusedToCaller calls answered otherwise (a 429 polite handed back)
 * @param failed calls that threw while the run was on
 * @param cut calls cancelled after the drain
 * @param durationsNanos every ended call's duration, execute() to the body read
 * @param steadyRedisWaitsNanos how long calls waited for Redis, one entry per wait, recorded from
 *     the steady state's start to D (calls that went on the lease they held waited for nothing and
 *     have none): what the fleet adds to a call
 * @param roundTrips Redis commands over the whole row
 * @param steadyCalls calls ended from the steady state's start to D
 * @param steadyRoundTrips Redis commands over the same span
 * @param samples fallback samples taken (one per instance every 50 ms)
 * @param fallingBack of those, how many found the instance pacing alone
 * @param failures the first few failures' messages
 */
record InstanceReport(long ok, long refusedToCaller, long failed, long cut, long[] durationsNanos,
    long[] steadyRedisWaitsNanos, long roundTrips, long steadyCalls, long steadyRoundTrips, long samples, long fallingBack,
    List<String> failures) {
  static final int FAILURES_KEPT = 3;

  InstanceReport {
    failures = List.copyOf(failures);
  }

  /** Calls that ended on their own. */
  long calls() {
    return ok + refusedToCaller + failed;
  }

  /** The fleet's report: every count summed, every duration kept, the first few failures. */
  static InstanceReport merge(List<InstanceReport> reports) {
    List<String> failures = new ArrayList<>();
    reports.forEach(r -> r.failures.stream().limit(Math.max(0, FAILURES_KEPT - failures.size())).forEach(failures::add));
    return new InstanceReport(
        reports.stream().mapToLong(InstanceReport::ok).sum(),
        reports.stream().mapToLong(InstanceReport::refusedToCaller).sum(),
        reports.stream().mapToLong(InstanceReport::failed).sum(),
        reports.stream().mapToLong(InstanceReport::cut).sum(),
        reports.stream().flatMapToLong(r -> LongStream.of(r.durationsNanos)).toArray(),
        reports.stream().flatMapToLong(r -> LongStream.of(r.steadyRedisWaitsNanos)).toArray(),
        reports.stream().mapToLong(InstanceReport::roundTrips).sum(),
        reports.stream().mapToLong(InstanceReport::steadyCalls).sum(),
        reports.stream().mapToLong(InstanceReport::steadyRoundTrips).sum(),
        reports.stream().mapToLong(InstanceReport::samples).sum(),
        reports.stream().mapToLong(InstanceReport::fallingBack).sum(),
        failures);
  }
}
