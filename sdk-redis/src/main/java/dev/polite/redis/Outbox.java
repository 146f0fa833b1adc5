package dev.polite.redis;

/**
 * What one key of this instance has yet to tell the fleet: units to give back, a pause it began
 * or lengthened (and whether for a refusal), a pause a probe found over, and the server's last
 * remaining count. Only one request per key is in flight, so news that comes meanwhile waits
 * here and rides on the next one; news on a request that never left comes back here.
 *
 * <p>Not thread-safe: its key's lock guards it.
 */
final class Outbox {
  private static final long NONE = -1;

  private double back;
  private long remaining = NONE;
  private long pauseMicros = NONE;
  private boolean refused;
  private boolean resume;

  /** Units leased and not spent: the fleet's to lease again. */
  void giveBack(double units) {
    back += units;
  }

  /** The server's count, as it read it last: an older one is no news. */
  void remaining(long count) {
    remaining = Math.max(0, count);
  }

  /** A pause this instance began or lengthened: the longest one goes, a refusal's cause with it. */
  void paused(long micros, boolean forRefusal) {
    pauseMicros = Math.max(pauseMicros, micros);
    refused |= forRefusal;
  }

  /** A probe found the pause over: that, not the pause, is the news now. */
  void resumed() {
    resume = true;
    pauseMicros = NONE;
  }

  /**
   * Whether it holds a pause or its end: news the fleet must hear even if no call comes to carry
   * it (this instance may have given up on the key).
   */
  boolean holdsPauseNews() {
    return pauseMicros != NONE || resume;
  }

  /** Whether it holds units to give back. */
  boolean givesBack() {
    return back > 0;
  }

  /** Everything it holds, for one request; the outbox is empty after. */
  News take() {
    News news = new News(back, remaining, pauseMicros, refused, resume);
    back = 0;
    remaining = NONE;
    pauseMicros = NONE;
    refused = false;
    resume = false;
    return news;
  }

  /**
   * News taken for a request that never reached Redis: told with the next one, merged with what
   * came since (a newer remaining count wins).
   */
  void unsent(News news) {
    back += news.back;
    pauseMicros = Math.max(pauseMicros, news.pauseMicros);
    refused |= news.refused;
    resume |= news.resume;
    if (remaining == NONE) {
      remaining = news.remaining;
    }
  }

  /**
   * What one request carries, as {@link LeaseRequest} names it: {@code remaining} and
   * {@code pauseMicros} are -1 when they are no news.
   */
  record News(double back, long remaining, long pauseMicros, boolean refused, boolean resume) {}
}
