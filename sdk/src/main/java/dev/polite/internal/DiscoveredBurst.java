package dev.polite.internal;

/**
 * How many calls a key discovering its pace may send at once: the burst a limiter that names its
 * delay but not its rate (a bare Retry-After) showed it holds, so that after the pause the calls
 * go as fast as its bank allows, not only at the discovered pace.
 *
 * <h2>Why</h2>
 * A token bucket of 20 a second with a burst of 20 refills its whole burst during the second a
 * Retry-After of 1 asks for; a fixed window starts afresh. A key that resumes at its pace alone
 * (about 18 a second after a cut) leaves that bank unspent, and a cell of 100 calls took 1.3 to
 * 1.3 times its floor where one that spends the bank takes 1.1 (zoo, token-bucket/retry-after).
 *
 * <h2>The evidence, and its bound</h2>
 * At each cut the burst is what the server admitted since the last one beyond what the new pace
 * would have let through in that time ({@link AdmittedRate#beyondPace}): 20 calls admitted in
 * 40 ms and then a refusal is a burst of about 20; the same 20 spread over a second, none. Only a
 * refusal that named its delay is believed: a bare one may come from a limiter that banks
 * nothing (HAProxy's sliding rate counts every request of its last period, refused ones too),
 * and believing even half of a bare refusal's burst cost up to 13 refusals in 100 calls at 64
 * callers there, against 4 without. One refusal of a call sent from the bank, with calls flowing
 * (not a lone probe after a pause), refutes it for good: the key goes back to one call at a time
 * at its pace. At most 1,000 calls.
 *
 * <p>Not thread-safe: part of {@link KeyModel}. Times are ticker nanoseconds.
 */
final class DiscoveredBurst {
  private static final double MAX = 1_000;

  private double burst = 1;
  private boolean refuted;
  private long lastBankedAt = Long.MIN_VALUE;

  /** The calls that may go at once now. */
  double burst() {
    return burst;
  }

  /**
   * A refusal cut the pace to {@code rate}: the server's burst is what it admitted beyond it.
   *
   * @param named whether the refusal named its delay (a Retry-After)
   */
  void onCut(double rate, double beyondPace, boolean named, long now) {
    if (refuted || Double.isInfinite(rate)) {
      return;
    }
    burst = named ? Math.max(1, Math.min(MAX, Math.floor(beyondPace))) : 1;
  }

  /** A call is reserved with {@code tokens} in the bucket: beyond its cost, it is of the bank. */
  void onReserve(double cost, double tokens, long now) {
    if (burst > 1 && tokens >= cost + 1) {
      lastBankedAt = now;
    }
  }

  /**
   * A call sent at {@code sentAt} was refused.
   *
   * @param probe whether it went alone, the first after a pause or a refusal
   * @return whether the burst was refuted now: the bucket's capacity must come down to one
   */
  boolean onRefusal(long sentAt, boolean probe) {
    if (refuted || burst <= 1 || probe || sentAt > lastBankedAt) {
      return false;
    }
    refuted = true;
    burst = 1;
    return true;
  }

  @Override
  public String toString() {
    return "burst " + burst + (refuted ? " (refuted)" : "");
  }
}
