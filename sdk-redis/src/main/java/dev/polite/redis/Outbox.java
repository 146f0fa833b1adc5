package dev.polite.redis;

/**
 * What one key of this instance has yet to tell the fleet: units to give back, the units of the
 * calls it sent, a pause it began or lengthened (and whether for a refusal), a pause a probe
 * found over, and the server's last remaining count. Only one request per key is in flight, so
 * news that comes meanwhile waits here and rides on the next one; news on a request that never
 * left comes back here.
 *
 * <p>A pause waits here as its end, not its length: the script holds the fleet for the length it
 * is told from when it hears it, so a length told late would hold the fleet again, as long again,
 * from the moment this instance's own pause ended (a spent quota's second, told by the first call
 * after it, paused every instance for another second). Told, a pause is what is left of it; a
 * spent quota's that is over is no news, and a refusal's is told as over (its pace cut still
 * stands).
 *
 * <p>Not thread-safe: its key's lock guards it.
 */
final class Outbox {
  private static final long NONE = -1;

  private double back;
  /** Units of the calls sent, leased or not. */
  private double sent;
  private long remaining = NONE;
  /** The pause's end, in ticker nanoseconds, or {@link Long#MIN_VALUE} when there is none to tell. */
  private long pauseUntil = Long.MIN_VALUE;
  private boolean refused;
  private boolean resume;

  /** Units leased and not spent: the fleet's to lease again. */
  void giveBack(double units) {
    back += units;
  }

  /**
   * A call of {@code units} went, on a lease or not (pacing alone, or while the fleet knew no
   * pace): the script counts what the fleet sent, which its discovered pace is cut from.
   */
  void sent(double units) {
    sent += units;
  }

  /** The server's count, as it read it last: an older one is no news. */
  void remaining(long count) {
    remaining = Math.max(0, count);
  }

  /** A pause this instance began or lengthened, to {@code until}: the latest end goes, a refusal's cause with it. */
  void paused(long until, boolean forRefusal) {
    pauseUntil = Math.max(pauseUntil, until);
    refused |= forRefusal;
  }

  /** A probe found the pause over: that, not the pause, is the news now. */
  void resumed() {
    resume = true;
    pauseUntil = Long.MIN_VALUE;
  }

  /**
   * Whether it holds a pause or its end: news the fleet must hear even if no call comes to carry
   * it (this instance may have given up on the key).
   */
  boolean holdsPauseNews() {
    return pauseUntil != Long.MIN_VALUE || resume;
  }

  /** Whether it holds units to give back. */
  boolean givesBack() {
    return back > 0;
  }

  /** Everything it holds, for one request sent at {@code now}; the outbox is empty after. */
  News take(long now) {
    News news = new News(back, sent, remaining, pauseUntil, microsLeft(now), refused, resume);
    back = 0;
    sent = 0;
    remaining = NONE;
    pauseUntil = Long.MIN_VALUE;
    refused = false;
    resume = false;
    return news;
  }

  /** What is left at {@code now} of the pause to tell, in microseconds; {@link #NONE} when no news. */
  private long microsLeft(long now) {
    if (pauseUntil == Long.MIN_VALUE) {
      return NONE;
    }
    long left = pauseUntil - now;
    if (left > 0) {
      return FleetPause.cut((left + 999) / 1000);
    }
    return refused ? 0 : NONE;
  }

  /**
   * News taken for a request that never reached Redis: told with the next one, merged with what
   * came since (a newer remaining count wins).
   */
  void unsent(News news) {
    back += news.back;
    sent += news.sent;
    pauseUntil = Math.max(pauseUntil, news.pauseUntil);
    refused |= news.refused;
    resume |= news.resume;
    if (remaining == NONE) {
      remaining = news.remaining;
    }
  }

  /**
   * What one request carries, as {@link LeaseRequest} names it: {@code remaining} and
   * {@code pauseMicros} (what was left of the pause when it was sent) are -1 when they are no
   * news; {@code pauseUntil} is the pause's end, kept for a request that never left.
   */
  record News(double back, double sent, long remaining, long pauseUntil, long pauseMicros,
      boolean refused, boolean resume) {}
}
