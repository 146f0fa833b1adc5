package dev.polite.internal.model;

import dev.polite.RateController;

/**
 * AIMD for one key; see {@link dev.polite.Aimd} for the rules.
 *
 * <h2>Refinements over the textbook</h2>
 * <ul>
 *   <li>The cut starts from what the server <em>admitted</em> since the previous cut, or from the
 *       pace if that is lower: against a server that refused a burst of 64 calls after 20, the
 *       send rate is in the thousands and cutting it takes a dozen refusals to get down, while 20
 *       accepts in the first second put the pace at once just under 20 per second. When nothing
 *       was admitted since the last cut (a probe refused at once), the pace itself is cut.
 *   <li>The climb slows to a tenth near the pace that was last refused (above
 *       {@value #KNEE} of it), and to at most {@value #PROBE_SHARE_PER_SECOND} of that pace per
 *       second, so that a small limit is probed as gently as a large one. Once the pace is
 *       {@value #FORGET_ABOVE} times the refused one and still not refused, that knee is
 *       forgotten and the climb is fast again: a cut made from the admitted share of a first
 *       burst can start far below the limit, and should not creep up from there for minutes. Every refusal costs a pause, often a whole second because
 *       Retry-After counts in seconds, so the sawtooth's period matters more than its depth:
 *       climbing quickly back to just under the last limit and then probing gently means few
 *       refusals per minute while the pace stays close to the limit. The slow probe also finds a
 *       limit that has risen, at a tenth of the speed.
 * </ul>
 *
 * <p>The increase is time-based ({@code increasePerSecond} times the seconds since the last
 * change), so the climb does not depend on how many requests happen to succeed; it is capped at
 * twice the measured send rate so that a key with little demand does not bank a pace it never
 * tested.
 *
 * <p>Not thread-safe: the key's lock guards it.
 */
public final class AimdController implements RateController {
  /** Above this share of the last refused pace the climb slows. */
  static final double KNEE = 0.95;
  /** How much slower the climb is above the knee. */
  static final double PROBE_SLOWDOWN = 0.1;
  /** Above the knee the climb adds at most this share of the refused pace per second. */
  static final double PROBE_SHARE_PER_SECOND = 0.01;
  /** Past this multiple of the refused pace, unrefused, the knee is forgotten. */
  static final double FORGET_ABOVE = 1.05;

  private final double decreaseFactor;
  private final double increasePerSecond;
  private final double minRate;
  private double rate = Double.POSITIVE_INFINITY;
  private double lastRefused = Double.POSITIVE_INFINITY;
  /** The pace the last cut began from: what it was told is measured against it. */
  private double rateBeforeCut = Double.POSITIVE_INFINITY;
  private long changedAt;

  /** See {@link dev.polite.Aimd.Builder} for the meaning and ranges of the arguments. */
  public AimdController(double decreaseFactor, double increasePerSecond, double minRate) {
    this.decreaseFactor = decreaseFactor;
    this.increasePerSecond = increasePerSecond;
    this.minRate = minRate;
  }

  @Override
  public double rate() {
    return rate;
  }

  @Override
  public void onSuccess(long nowNanos, double measuredSendRate) {
    if (Double.isInfinite(rate)) {
      return;
    }
    double raised = climb(rate, secondsSince(nowNanos));
    if (raised > lastRefused * FORGET_ABOVE) {
      // Well past the pace once refused and still not refused: that pace was no limit (a cut
      // made in a burst can start far too low), so climb at full speed to the next refusal.
      lastRefused = Double.POSITIVE_INFINITY;
    }
    changedAt = nowNanos;
    rate = Math.max(minRate, Math.min(raised, Math.max(rate, 2 * measuredSendRate)));
  }

  @Override
  public void onRejection(long nowNanos, double admittedRate) {
    rateBeforeCut = rate;
    double base = admittedRate > 0 ? Math.min(rate, admittedRate) : rate;
    if (base > 0 && !Double.isInfinite(base)) {
      lastRefused = base;
      rate = Math.max(minRate, base * decreaseFactor);
    } else {
      rate = minRate; // refused before we could measure anything: start from the floor
    }
    changedAt = nowNanos;
  }

  /**
   * The cut is made again from the rate it should have been told, if that is higher: never lower
   * than the pace now (which may have climbed since), and only while the refused pace is still
   * believed.
   */
  @Override
  public void onAdmittedBeforeCut(long nowNanos, double admittedRate) {
    double base = Math.min(rateBeforeCut, admittedRate);
    if (Double.isInfinite(lastRefused) || Double.isInfinite(base) || base <= lastRefused) {
      return;
    }
    lastRefused = base;
    rate = Math.max(rate, Math.max(minRate, base * decreaseFactor));
  }

  /** The pace after {@code seconds} of climbing from {@code from}: fast to the knee, then slow. */
  private double climb(double from, double seconds) {
    double knee = lastRefused * KNEE;
    double fast = increasePerSecond;
    // Near a small limit a fixed step is a large share of it: 0.1/s per second above a 4/s
    // limit is 25 % over within ten seconds. A percent per second probes any limit alike.
    double slow = Math.min(increasePerSecond * PROBE_SLOWDOWN, lastRefused * PROBE_SHARE_PER_SECOND);
    if (from >= knee) {
      return from + slow * seconds;
    }
    double toKnee = (knee - from) / fast;
    return seconds <= toKnee ? from + fast * seconds : knee + slow * (seconds - toKnee);
  }

  private double secondsSince(long nowNanos) {
    return Math.max(0, nowNanos - changedAt) / 1e9;
  }

  @Override
  public String toString() {
    return "AimdController{rate=" + rate + "/s, last refused " + lastRefused + "/s}";
  }
}
