package dev.polite.adaptive.scenarios;

/**
 * A copy of the sdk's package-private {@code dev.polite.internal.SendRateMeter}, so that the
 * simulated client hands its controller the same measured send rate the sdk's {@code KeyState}
 * would: sends counted in half-second buckets, smoothed with weight 0.8 on the newest; before
 * the first bucket completes, the sends so far over at least half a second.
 */
final class SendRateMeter {
  private static final long BUCKET_NANOS = 500_000_000L;
  private static final double NEWEST_WEIGHT = 0.8;

  private long bucket = Long.MIN_VALUE;
  private long firstSend;
  private int count;
  private double smoothed = -1;

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
