package dev.polite.internal.model;

/**
 * Measures how fast a key really sends, for rate controllers: a cut should start from what the
 * server refused, not from a pace the key never used.
 *
 * <p>Counts sends in half-second buckets and smooths the completed buckets with an exponential
 * moving average (weight 0.8 on the newest), as the AWS SDKs' adaptive mode does. Before the
 * first bucket completes it estimates from the sends so far over at least half a second, so a
 * burst that is rejected at once still yields a sensible rate.
 *
 * <p>Not thread-safe: the key's lock guards it.
 */
final class SendRateMeter {
  private static final long BUCKET_NANOS = 500_000_000L;
  private static final double NEWEST_WEIGHT = 0.8;

  private long bucket = Long.MIN_VALUE;
  private long firstSend;
  private int count;
  private double smoothed = -1;

  /** Counts one send at ticker time {@code now}. */
  void recordSend(long now) {
    long current = Math.floorDiv(now, BUCKET_NANOS);
    if (bucket == Long.MIN_VALUE) {
      bucket = current;
      firstSend = now;
    } else if (current > bucket) {
      double rate = count / ((current - bucket) * (BUCKET_NANOS / 1e9));
      smoothed = smoothed < 0 ? rate : NEWEST_WEIGHT * rate + (1 - NEWEST_WEIGHT) * smoothed;
      bucket = current;
      count = 0;
    }
    count++;
  }

  /** Requests per second; 0 before anything was sent. */
  double rate(long now) {
    if (smoothed >= 0) {
      return smoothed;
    }
    if (count == 0) {
      return 0;
    }
    return count / (Math.max(BUCKET_NANOS, now - firstSend) / 1e9);
  }
}
