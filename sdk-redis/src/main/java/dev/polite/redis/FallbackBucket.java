package dev.polite.redis;

import dev.polite.TokenBucket;
import org.jspecify.annotations.Nullable;

/**
 * A key's pace while its {@link RedisSharedState} cannot reach Redis: its share of the fleet's
 * last known pace and burst (over the instances last seen alive), on a bucket of this instance's
 * own. The fleet's members each spend their share, so together they stay near the fleet's pace.
 *
 * <p>Not thread-safe: its key's lock guards it.
 */
final class FallbackBucket {
  private @Nullable TokenBucket bucket;

  /**
   * The wait for a call of {@code cost}, whose units are taken when it is 0; always 0 while the
   * fleet knew no pace (nothing to share).
   */
  long take(double cost, double fleetRate, double fleetBurst, int alive, long now) {
    if (fleetRate <= 0) {
      return 0;
    }
    double rate = fleetRate / alive;
    double burst = Math.max(cost, fleetBurst / alive);
    TokenBucket share = bucket;
    if (share == null || share.rate() != rate || share.capacity() != burst) {
      // Empty: what the fleet spent just now is unknown here, so no burst on top of it.
      share = TokenBucket.empty(rate, burst, now);
      bucket = share;
    }
    long wait = share.waitFor(cost, now);
    if (wait == 0) {
      share.reserve(cost, now);
    }
    return wait;
  }
}
