package dev.polite.examples.zoo;

import java.util.ArrayList;
import java.util.List;

/**
 * How one zoo cell measured up to the targets: every call succeeded, the server refused at most
 * {@link #rejectionAllowance(int) max(3, 10 % of the calls)}, and the run took at most a factor
 * of its {@link Floor floor}. The zoo shows {@link #SLOW_FACTOR 1.3} times the floor; the CI gate
 * allows {@link #GATE_SLOW_FACTOR 2} times, which a busy shared machine still meets, and keeps
 * the other two targets as they are.
 *
 * <p>A spent quota ({@code quota/spent}: 20 calls an hour, 100 asked for) is judged by its own
 * targets, {@link #spentQuota}: where most calls cannot succeed, the client must let exactly the
 * quota's calls through, be refused at most {@link #SPENT_QUOTA_REJECTIONS twice}, and fail the
 * rest fast, the whole cell within {@link #SPENT_QUOTA_SECONDS 3 s}; the table and the gate alike.
 *
 * <p>A limiter that refuses everything ({@code refuses/everything}) is judged by
 * {@link #refusesEverything}: no call can succeed, so the cell is {@code ok} when every call ended
 * (none hung: a hung call holds the cell past its bound, and a cut cell is slow), the server refused
 * at most the usual allowance (a client learns that a key refuses everything from a run of
 * refusals with no success, and the allowance is that run), and the whole cell ended within
 * {@link #REFUSES_EVERYTHING_SECONDS 3 s}, as the spent quota's.
 *
 * <p>Refusals with a hint no client can use ({@code hints/unusable}: every 10th answer a 429 saying
 * "come back in a day", on a bucket that says Retry-After alone) are judged by {@link #unusableHints}: the calls
 * that ended with such a refusal may be given up (expected failures, as the spent quota's), every
 * other call must succeed, the server may refuse the bogus answers a client that sends each call
 * once meets plus the allowance, and the time target is the usual factor of the floor of the calls
 * the server admits.
 *
 * <p>Usage: {@code Verdict v = Verdict.judge(100, 98, 4, 5.6, 4.0, Verdict.SLOW_FACTOR); v.text(); // "lost 2, slow"}
 *
 * @param lost calls that did not end in a 2xx (failed, dropped, or given up with the server's
 *     refusal); for a spent quota, the calls short of what the quota allows
 * @param overQuota for a spent quota, the calls that succeeded beyond it (only if its window
 *     turned during the cell, which the zoo keeps its quota cell clear of); for a limiter that
 *     refuses everything, the calls that succeeded all the same; zero elsewhere
 * @param tooManyRejections whether the server refused more than the allowance
 * @param slow whether the run took longer than the factor times the floor (for a spent quota,
 *     longer than its bound)
 */
record Verdict(int lost, int overQuota, boolean tooManyRejections, boolean slow) {
  /** The table's and the report's time target: 1.3 times the floor. */
  public static final double SLOW_FACTOR = 1.3;
  /** The CI gate's time target: twice the floor, slack enough for a busy CI machine. */
  public static final double GATE_SLOW_FACTOR = 2.0;
  /** A spent quota's time bound: the whole cell, the quota's calls and the failed rest, within 3 s. */
  public static final double SPENT_QUOTA_SECONDS = 3.0;
  /** The most refusals a spent quota's cell may meet: the one that says the quota is spent, and one more. */
  public static final long SPENT_QUOTA_REJECTIONS = 2;

  /** A limiter that refuses everything: the whole cell, every call failed, within 3 s, as a spent quota's. */
  public static final double REFUSES_EVERYTHING_SECONDS = SPENT_QUOTA_SECONDS;

  /** A verdict with nothing over a quota: what {@link #judge} gives. */
  public Verdict(int lost, boolean tooManyRejections, boolean slow) {
    this(lost, 0, tooManyRejections, slow);
  }

  /**
   * Judges one run.
   *
   * @param requests calls made
   * @param succeeded calls that ended in a 2xx
   * @param rejected rate-limit refusals (the server's own count where it keeps one)
   * @param seconds the run's wall time
   * @param floorSeconds the cell's floor
   * @param slowFactor how many floors the run may take
   */
  public static Verdict judge(int requests, int succeeded, long rejected, double seconds, double floorSeconds,
      double slowFactor) {
    return new Verdict(Math.max(0, requests - succeeded), rejected > rejectionAllowance(requests),
        seconds > slowFactor * floorSeconds);
  }

  /**
   * Judges a run against a quota that admits {@code quota} calls in all (and then none for far
   * longer than any call may wait): {@code ok} when exactly {@code min(requests, quota)} calls
   * succeeded, the server refused at most {@link #SPENT_QUOTA_REJECTIONS 2} and the run ended within
   * {@link #SPENT_QUOTA_SECONDS 3 s}. The calls beyond the quota are expected to fail; failing
   * them fast, without asking the server again and again, is the point.
   *
   * @param requests calls made
   * @param succeeded calls that ended in a 2xx
   * @param rejected rate-limit refusals (the server's own count)
   * @param seconds the run's wall time
   * @param quota the calls the quota admits
   */
  public static Verdict spentQuota(int requests, int succeeded, long rejected, double seconds, long quota) {
    long allowed = Math.min(requests, quota);
    return new Verdict((int) Math.max(0, allowed - succeeded), (int) Math.max(0, succeeded - allowed),
        rejected > SPENT_QUOTA_REJECTIONS, seconds > SPENT_QUOTA_SECONDS);
  }

  /**
   * Judges a run against a limiter that refuses every call: {@code ok} when no call succeeded (one
   * that did is shown as over quota: the server admitted what it should not have), the server
   * refused at most {@link #rejectionAllowance} and the run ended within
   * {@link #REFUSES_EVERYTHING_SECONDS 3 s}. Every call failing is the point; failing them fast,
   * one probe now and then instead of a refusal per call, is what is judged.
   *
   * @param requests calls made
   * @param succeeded calls that ended in a 2xx
   * @param rejected rate-limit refusals (the server's own count)
   * @param seconds the run's wall time
   */
  public static Verdict refusesEverything(int requests, int succeeded, long rejected, double seconds) {
    return new Verdict(0, succeeded, rejected > rejectionAllowance(requests), seconds > REFUSES_EVERYTHING_SECONDS);
  }

  /**
   * Judges a run against a server that admits every call but refuses one answer in
   * {@code bogusEvery} with a hint no client can use (a {@code Retry-After} of a day): {@code ok}
   * when every call succeeded or was given up with one of those refusals ({@code givenUp}, at most
   * {@code rejected} of them count), the server refused at most
   * {@link #unusableHintsRejections} and the run took at most {@code slowFactor} times
   * {@code floorSeconds}, the floor of the calls the server admits.
   *
   * @param requests calls made
   * @param succeeded calls that ended in a 2xx
   * @param givenUp calls that ended with the server's refusal given back (no exception, not dropped)
   * @param rejected rate-limit refusals (the server's own count: all of them bogus)
   * @param seconds the run's wall time
   * @param floorSeconds the floor of the calls the server admits
   * @param slowFactor how many floors the run may take
   * @param bogusEvery one answer in this many is refused
   */
  public static Verdict unusableHints(int requests, int succeeded, int givenUp, long rejected, double seconds,
      double floorSeconds, double slowFactor, int bogusEvery) {
    long excused = Math.min(givenUp, rejected);
    return new Verdict((int) Math.max(0, requests - succeeded - excused),
        rejected > unusableHintsRejections(requests, bogusEvery), seconds > slowFactor * floorSeconds);
  }

  /**
   * The most refusals a run of {@code requests} calls may meet from a server that refuses one answer
   * in {@code bogusEvery}: those a client that sends each call once meets,
   * {@code requests / bogusEvery}, plus {@link #rejectionAllowance}.
   */
  public static long unusableHintsRejections(int requests, int bogusEvery) {
    return requests / bogusEvery + rejectionAllowance(requests);
  }

  /** The most refusals a run of {@code requests} calls may meet: {@code max(3, requests / 10)}. */
  public static long rejectionAllowance(int requests) {
    return Math.max(3, requests / 10);
  }

  /** Whether every target was met. */
  public boolean ok() {
    return lost == 0 && overQuota == 0 && !tooManyRejections && !slow;
  }

  /**
   * {@code ok}, or the targets missed in a fixed order, such as {@code lost 3, rejections, slow}
   * ({@code over quota N} after {@code lost}, for a spent quota only).
   */
  public String text() {
    if (ok()) {
      return "ok";
    }
    List<String> missed = new ArrayList<>(4);
    if (lost > 0) {
      missed.add("lost " + lost);
    }
    if (overQuota > 0) {
      missed.add("over quota " + overQuota);
    }
    if (tooManyRejections) {
      missed.add("rejections");
    }
    if (slow) {
      missed.add("slow");
    }
    return String.join(", ", missed);
  }

  @Override
  public String toString() {
    return text();
  }
}
