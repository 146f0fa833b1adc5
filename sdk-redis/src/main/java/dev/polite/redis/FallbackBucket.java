package dev.polite.redis;

import dev.polite.TokenBucket;
import org.jspecify.annotations.Nullable;

/**
 * A key's pace while its {@link RedisSharedState} cannot reach Redis, on a bucket of this
 * instance's own: its share of the fleet's last known pace and burst (over the instances last seen
 * alive), so that the members, each spending their share, stay near the fleet's pace together.
 * {@link RedisSharedKey#alone} says what the share is.
 *
 * <p>Not thread-safe: its key's lock guards it.
 */
final class FallbackBucket {
  private @Nullable TokenBucket bucket;

  /**
   * The wait for a call of {@code cost} at {@code rate} (burst {@code burst}), whose units are
   * taken when it is 0; always 0 without a rate (nothing to share).
   */
  long take(double cost, double rate, double burst, long now) {
    if (!(rate > 0)) {
      return 0;
    }
    double capacity = Math.max(cost, burst);
    TokenBucket share = bucket;
    if (share == null || share.rate() != rate || share.capacity() != capacity) {
      // Empty: what the fleet spent just now is unknown here, so no burst on top of it.
      share = TokenBucket.empty(rate, capacity, now);
      bucket = share;
    }
    long wait = share.waitFor(cost, now);
    if (wait == 0) {
      share.reserve(cost, now);
    }
    return wait;
  }
}
