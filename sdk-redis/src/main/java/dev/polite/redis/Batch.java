package dev.polite.redis;

/**
 * How many units one lease asks for: what this instance sends over a lease's time, at least one
 * call, and at most its fair share of the fleet's pace over that time (a greedy batch would hold
 * slots in the fleet's schedule that others then queue behind).
 *
 * <h2>A busy instance asks for its share</h2>
 * What an instance sends is what the fleet's schedule let it send: under a pace split many ways
 * its send rate reads only its last batches, and reads them low (a batch goes in a fraction of a
 * second, then the sdk's meter, in half-second buckets, sees nothing for seconds). Sized by that,
 * batches shrink to one or two calls and round trips multiply. So an instance that spent its
 * whole last lease just now, with a call waiting for more, is busy and asks for its fair share;
 * its send rate sizes the batch only when it left units unspent, or spent them long ago.
 *
 * <h2>A lease's time</h2>
 * It is {@code leaseFor}, but a fleet of many instances on a slow pace would split that time into
 * shares too small to be worth a round trip: 16 instances on 20 a second have 20 × 2 s / 16 = 2.5
 * units each in the default 2 s, so a saturated fleet would pay 16 / 40 = 0.4 round trips per call.
 * So a lease's time stretches until a fair share holds {@link #FEWEST} units: a busy instance then
 * pays at most one round trip per {@code FEWEST} calls, 0.2, with room under a quarter for the
 * requests that only carry news (a pause, a refresh). Stretched, the whole fleet holds
 * {@code FEWEST × alive} units, {@code FEWEST × alive / rate} seconds of the pace, ahead of its
 * bucket. That stays within half of what the bucket lends ahead ({@link #LONGEST}), so batches are
 * still granted whole while some of the fleet's units wait to be spent; past it (a fleet larger
 * than the pace over that time can share) the time stops stretching and batches shrink again.
 *
 * <p>A stretched lease costs no call its place: unit <i>j</i> still falls due at its place in the
 * fleet's schedule, whoever holds it. An instance that sends less than its share still asks only
 * for what it sends over that time, and units it leaves unspent go back after {@code validity}.
 */
final class Batch {
  /** The fewest units a busy instance's fair share holds: at most one round trip per 5 calls. */
  static final int FEWEST = 5;
  /** The share of what the bucket lends ahead that a fleet's stretched batches may hold. */
  static final double LONGEST = 0.5;

  private Batch() {}

  /**
   * @param cost the call's cost (a batch covers it, whatever the cap)
   * @param sendRate calls a second this instance has been sending
   * @param busy whether its calls spent its whole last lease just now (then it asks for its share)
   * @param fleetRate the fleet's pace, units a second (0 or less: none known)
   * @param alive the instances the fleet counts
   * @param leaseForNanos a lease's time, unstretched
   * @param aheadNanos how far past empty the fleet's bucket lends
   */
  static double of(double cost, double sendRate, boolean busy, double fleetRate, int alive,
      long leaseForNanos, long aheadNanos) {
    double seconds = seconds(fleetRate, alive, leaseForNanos, aheadNanos);
    double byDemand = busy ? Double.POSITIVE_INFINITY : Math.ceil(sendRate * seconds);
    double fairShare = Math.max(1, Math.ceil(fleetRate * seconds / members(alive)));
    return Math.max(Math.ceil(cost), Math.min(byDemand, fairShare));
  }

  /** A lease's time: {@code leaseFor}, stretched until a fair share holds {@link #FEWEST} units. */
  static double seconds(double fleetRate, int alive, long leaseForNanos, long aheadNanos) {
    double leaseFor = leaseForNanos / 1e9;
    if (fleetRate <= 0) {
      return leaseFor;
    }
    double forFewest = FEWEST * members(alive) / fleetRate;
    return Math.max(leaseFor, Math.min(forFewest, LONGEST * aheadNanos / 1e9));
  }

  /** The instances a share is of: at least this one. */
  private static int members(int alive) {
    return Math.max(1, alive);
  }
}
