package dev.polite.adaptive.internal;

/**
 * Requests and accepts over a sliding window of {@code buckets} equal slices of time: the
 * window the SRE throttling formula reads.
 *
 * <p>A ring of slots, one per slice, with running totals: when time moves into a new slice, every
 * slot the window slid past is zeroed and its counts leave the totals (so an idle ring costs
 * nothing, and a jump longer than the window clears it in one pass). The totals include the
 * current, partial slice, so the window covers between {@code window - slice} and
 * {@code window} of history. Reading and counting are O(1) amortized; memory is two longs per
 * slice whatever the traffic.
 *
 * <p>Not thread-safe: the throttler's lock guards it. Times are ticker nanoseconds.
 */
public final class SlidingCounts {
  private final long sliceNanos;
  private final long[] requests;
  private final long[] accepts;
  private long requestTotal;
  private long acceptTotal;
  private long newest = Long.MIN_VALUE;

  /**
   * @param windowNanos the window's length, positive
   * @param buckets how many slices it is cut into, at least 1
   */
  public SlidingCounts(long windowNanos, int buckets) {
    if (windowNanos <= 0 || buckets < 1 || windowNanos / buckets < 1) {
      throw new IllegalArgumentException("window " + windowNanos + " ns in " + buckets + " buckets");
    }
    this.sliceNanos = windowNanos / buckets;
    this.requests = new long[buckets];
    this.accepts = new long[buckets];
  }

  /** Counts one request at {@code now}. */
  public void addRequest(long now) {
    requests[slot(now)]++;
    requestTotal++;
  }

  /** Counts one accept at {@code now}. */
  public void addAccept(long now) {
    accepts[slot(now)]++;
    acceptTotal++;
  }

  /** Requests in the window ending at {@code now}. */
  public long requests(long now) {
    slide(now);
    return requestTotal;
  }

  /** Accepts in the window ending at {@code now}. */
  public long accepts(long now) {
    slide(now);
    return acceptTotal;
  }

  private int slot(long now) {
    slide(now);
    return index(newest);
  }

  /**
   * Moves the window's head to {@code now}'s slice, zeroing every slot it passes. A time older
   * than the head (a racing caller's stale reading) counts in the head's slice.
   */
  private void slide(long now) {
    long slice = Math.floorDiv(now, sliceNanos);
    if (slice <= newest) {
      return;
    }
    int n = requests.length;
    long from = newest == Long.MIN_VALUE || slice - newest > n ? slice - n + 1 : newest + 1;
    for (long s = from; s <= slice; s++) {
      int i = index(s);
      requestTotal -= requests[i];
      acceptTotal -= accepts[i];
      requests[i] = 0;
      accepts[i] = 0;
    }
    newest = slice;
  }

  private int index(long slice) {
    return (int) Math.floorMod(slice, (long) requests.length);
  }
}
