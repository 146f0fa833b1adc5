package dev.polite.vendors.github;

import java.util.Map;

/**
 * One GitHub resource's primary limit: {@code limit} calls per fixed window, the windows aligned
 * to multiples of {@code windowMillis} since the epoch (so that a whole-second window ends on a
 * whole second, and the epoch-seconds reset GitHub sends is exact). Thread-safe.
 */
final class FixedWindow {
  private final String resource;
  private final int limit;
  private final long windowMillis;
  private long start;
  private int used;

  FixedWindow(String resource, int limit, long windowMillis) {
    this.resource = resource;
    this.limit = limit;
    this.windowMillis = windowMillis;
  }

  private void roll(long now) {
    long current = now - Math.floorMod(now, windowMillis);
    if (current != start) {
      start = current;
      used = 0;
    }
  }

  /** Spends one call now: the answer's headers, or null when the window is spent. */
  synchronized Map<String, String> take(long now) {
    roll(now);
    if (used >= limit) {
      return null;
    }
    used++;
    return headers(now);
  }

  /** The headers of the window as it stands at {@code now}. */
  synchronized Map<String, String> headers(long now) {
    roll(now);
    return GitHubApi.rateHeaders(resource, limit, limit - used, (start + windowMillis) / 1000);
  }

  /** The resource's record in {@code /rate_limit}'s body. */
  synchronized String record(long now) {
    roll(now);
    return "{\"limit\":" + limit + ",\"used\":" + used + ",\"remaining\":" + (limit - used)
        + ",\"reset\":" + (start + windowMillis) / 1000 + "}";
  }

  /**
   * Sleeps until just after the next window of {@code windowMillis} opens, so that a scenario
   * starts with a whole window and its floor is the same each run.
   */
  static void awaitNextWindow(long windowMillis) throws InterruptedException {
    long now = System.currentTimeMillis();
    Thread.sleep(windowMillis - Math.floorMod(now, windowMillis) + 20);
  }

  /** The headers of a quota with nothing left until {@code resetMillis}. */
  static Map<String, String> spentHeaders(String resource, int limit, long resetMillis) {
    return GitHubApi.rateHeaders(resource, limit, 0, (resetMillis + 999) / 1000);
  }
}
