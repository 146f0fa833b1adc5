package dev.polite.internal.model;

/**
 * How fast the server has really been admitting a key's calls lately: the accepts since the
 * rate controller's last cut (at most the last ten seconds of them), per second, over at least
 * one second, not counting the time the key was paused.
 *
 * <h2>Why not the send rate</h2>
 * A cut that starts from what the key was <em>sending</em> starts from a rate the server just
 * refused: with 64 calls fired at a server that allows 20 per second, the send rate is in the
 * thousands and a cut of it is still far too fast, so discovery needs many refusals to get down.
 * What the server <em>admitted</em> in the same period is the evidence of its limit: 20 accepts in
 * the first second says "about 20 per second", and against a window limit that admits a burst and
 * then refuses for ten seconds, the accepts since the last cut over the time since it (pause
 * included) converge on the window's true average in one step.
 *
 * <p>The floor of one second keeps a burst admitted in a few milliseconds from reading as
 * thousands per second. Counts are kept in half-second buckets so the memory is fixed.
 *
 * <p>Not thread-safe: the key's lock guards it.
 */
final class AdmittedRate {
  private static final long BUCKET_NANOS = 500_000_000L;
  private static final int BUCKETS = 20; // ten seconds
  private static final long HORIZON_NANOS = BUCKET_NANOS * BUCKETS;
  private static final long MIN_SPAN_NANOS = 1_000_000_000L;

  private final int[] counts = new int[BUCKETS];
  private final long[] bucketOf = new long[BUCKETS];
  private long since = Long.MIN_VALUE;
  private long paused;
  /** Accepts since the restart that are not evidence of the rate: calls a bank let go at once. */
  private long excluded;

  AdmittedRate() {
    java.util.Arrays.fill(bucketOf, Long.MIN_VALUE);
  }

  /** The key's first send, or a cut: what is counted starts here. */
  void restart(long now) {
    since = now;
    paused = 0;
    excluded = 0;
    java.util.Arrays.fill(counts, 0);
  }

  /** Whether counting has begun (a first send or a cut). */
  boolean started() {
    return since != Long.MIN_VALUE;
  }

  /**
   * Time the key spent paused since the restart. A server that asked for a pause was not
   * refusing a rate in that time, so the time is not held against what it admitted: otherwise a
   * token bucket that asked for one second after each refusal would read as ever slower.
   */
  void excludePause(long nanos) {
    paused += nanos;
  }

  /** One call the server admitted, answered at {@code now}. */
  void recordAccept(long now) {
    long bucket = Math.floorDiv(now, BUCKET_NANOS);
    int slot = (int) Math.floorMod(bucket, (long) BUCKETS);
    if (bucketOf[slot] != bucket) {
      bucketOf[slot] = bucket;
      counts[slot] = 0;
    }
    counts[slot]++;
  }

  /**
   * One accept since the restart that is no evidence of the rate since it: a call the server is
   * about to admit out of what it banked (its rate did not let it through), or one sent before
   * the restart whose answer came after it (it belongs to the rate read before).
   */
  void excludeOne() {
    excluded++;
  }

  /** Accepts per second since the restart (at most ten seconds back), over at least a second. */
  double perSecond(long now) {
    if (!started()) {
      return 0;
    }
    long from = Math.max(since, now - HORIZON_NANOS);
    return Math.max(0, accepts(from) - excluded) / spanSeconds(now);
  }

  /** The seconds {@link #perSecond} divides by: unpaused, at least one, at most ten. */
  double spanSeconds(long now) {
    long from = Math.max(since, now - HORIZON_NANOS);
    return Math.max(MIN_SPAN_NANOS, now - from - paused) / 1e9;
  }

  /** When counting began: the key's first send or the last cut; MIN_VALUE before either. */
  long since() {
    return since;
  }

  /**
   * What the server took at once beyond a pace of {@code rate}: the accepts since the restart less
   * what that pace would have let through in the unpaused time they took. A server that admitted
   * 20 calls in 40 ms and then refused banked about 20; one that admitted them evenly over a
   * second at 20 a second, none.
   */
  double beyondPace(double rate, long now) {
    if (!started()) {
      return 0;
    }
    long from = Math.max(since, now - HORIZON_NANOS);
    long span = Math.max(0, now - from - paused);
    return accepts(from) - excluded - rate * (span / 1e9);
  }

  private long accepts(long from) {
    long firstBucket = Math.floorDiv(from, BUCKET_NANOS);
    long accepts = 0;
    for (int i = 0; i < BUCKETS; i++) {
      if (bucketOf[i] >= firstBucket) {
        accepts += counts[i];
      }
    }
    return accepts;
  }

  /**
   * Whether at least a second of unpaused sending has passed since the restart: before that, a
   * refusal soon after a cut (a probe that met a limiter still counting the last burst) says
   * nothing about the rate, and the handful admitted meanwhile would read as a tiny one.
   */
  boolean hasEvidence(long now) {
    return started() && now - since - paused >= MIN_SPAN_NANOS;
  }
}
