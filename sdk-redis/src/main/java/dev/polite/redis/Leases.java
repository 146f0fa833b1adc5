package dev.polite.redis;

/**
 * The lease a key spends, and the next one, asked for before the first runs out.
 *
 * <h2>Why ask ahead</h2>
 * A key that asks Redis only when its lease cannot cover a call makes that call wait for the
 * answer: a round trip, up to the time-out, added to the call. Where the fleet sends at its pace,
 * the bucket lends past empty and a lease's units fall due one after another, one pace apart
 * ({@link Lease}); a busy instance's calls are there before their units. Then, once half of the
 * lease is left, the next batch is asked for: the half left falls due over two units of the pace
 * and more (a busy fleet's batch holds at least {@link Batch#FEWEST}: 100 ms at 20 a second), time
 * for the round trip (answers from a loaded machine's Redis came within 70 ms at the 99th
 * percentile), and the next batch is in hand when this one is spent. Its units fall due after
 * this lease's, never before (the fleet's bucket is one schedule, and it lent this lease's units
 * first), so none of them expires while this one is spent.
 *
 * <p>And not before the lease's last unit falls due within {@code validity} (250 ms by default):
 * every unit a fleet holds ahead of its calls pushes the units leased after it further into the
 * schedule, and a call that needs them waits longer. At a slow pace (2 a second, just after a
 * cut) half a lease lasts seconds; its next batch is held no longer than an instance may hold a
 * unit past due.
 *
 * <p>Nor where the schedule is deep: a lease whose first unit fell due later than
 * {@code validity} after the answer. There every call waits that long for its unit whichever
 * way, and a round trip shortens no one's wait (in a closed loop the mean wait is the callers
 * over the pace); a batch held ahead only deepens the schedule and spreads the waits. Asked for
 * ahead there, 16 instances of 2 callers on 10 a second had calls wait past their 10 s max wait
 * in 2 of 4 runs of {@code FleetTest}, against none in 4 without.
 *
 * <p>Where the bucket held the units (a fleet below its pace), they are all due at once and
 * expire {@code validity} later: asked for ahead, most would expire unspent, each costing a round
 * trip for nothing. There a key asks when a call needs the lease, as without this class.
 *
 * <p>Not thread-safe: its key's lock guards it. Times are ticker nanoseconds.
 */
final class Leases {
  private Lease spending = Lease.NONE;
  private Lease next = Lease.NONE;

  /**
   * Whether the units in hand cover a call of {@code cost}; when this lease's do not and the next's
   * do, the next becomes the one spent. Returns the units that leaves behind, for the fleet.
   */
  double turnOver(double cost) {
    if (spending.covers(cost) || !next.covers(cost)) {
      return 0;
    }
    double left = spending.surrender();
    spending = next;
    next = Lease.NONE;
    return left;
  }

  /** Whether the lease being spent covers a call of {@code cost} (after {@link #turnOver}). */
  boolean covers(double cost) {
    return spending.covers(cost);
  }

  /** When the next {@code cost} units fall due. */
  long dueOf(double cost) {
    return spending.dueOf(cost);
  }

  /**
   * Spends the next {@code cost} units, due at {@code due}, at {@code now}; returns whether to ask
   * for the next batch now: none is in hand, this lease was lent past empty (the fleet sends at
   * its pace) but its first unit fell due within {@code aheadNanos} of the answer (the schedule
   * is shallow), half of it or less is left and its last unit falls due within {@code aheadNanos},
   * and the call came before its units fell due, within a pace's unit of {@code now} (this
   * instance sends as fast as the fleet lets it).
   */
  boolean spend(double cost, long due, long unitNanos, long aheadNanos, long now) {
    spending.spend(cost, now);
    return next.left() == 0 && spending.lentPastEmpty() && spending.firstDueWithin(aheadNanos)
        && now - due <= unitNanos && spending.left() <= spending.granted() / 2
        && spending.dueOf(spending.left()) - now <= aheadNanos;
  }

  /** Takes a grant: to spend now if nothing is left of this lease, else after it. */
  double add(Lease lease) {
    if (spending.left() == 0) {
      spending = lease;
      return 0;
    }
    double replaced = next.surrender(); // one request at a time: nothing is in it, but be safe
    next = lease;
    return replaced;
  }

  /**
   * Whether calls spent every unit of the lease being spent, the last less than {@code recent}
   * before {@code now}.
   */
  boolean spentWholeWithin(long recent, long now) {
    return spending.spentWholeWithin(recent, now);
  }

  /** Units not spent yet, in both. */
  double left() {
    return spending.left() + next.left();
  }

  /** Gives up every unit left in both; returns how many. */
  double surrender() {
    return spending.surrender() + next.surrender();
  }

  /** Gives up the units that fell due more than {@code validity} before {@code now}, in both. */
  double expire(long now, long validity) {
    return spending.expire(now, validity) + next.expire(now, validity);
  }

  @Override
  public String toString() {
    return spending + (next.left() > 0 ? " then " + next : "");
  }
}
