package dev.polite.redis;

/**
 * Units of one key's fleet budget that Redis granted this instance in one answer, and when each
 * may be spent.
 *
 * <h2>Why units fall due</h2>
 * The fleet's bucket may lend past empty: a lease of {@code granted} units taken when it held
 * {@code before} leaves it at {@code before - granted}. Unit {@code j} (counted from 1) is covered
 * once the bucket has refilled to {@code j}, that is {@code (j - before) / rate} seconds after the
 * answer (at once for {@code j <= before}). Every unit thus has one place in the fleet's schedule,
 * whichever instance holds it, and an instance spending its units no sooner than they fall due
 * sends, with the whole fleet, no faster than the bucket allows. Timing is counted from when the
 * answer <em>arrived</em>, a little after Redis decided, which errs late: safe.
 *
 * <h2>Why units expire</h2>
 * A unit spent long after it fell due would join units the bucket handed out later, and together
 * they could exceed what the server's own bucket holds at that moment. So a unit not spent within
 * {@code validity} of falling due goes back to the fleet. The fleet's sends are then never more
 * than {@code rate x validity} ahead of its bucket's shape.
 *
 * <p>Not thread-safe: its key's lock guards it. Times are ticker nanoseconds.
 */
final class Lease {
  /** Nothing leased. */
  static final Lease NONE = new Lease(0, 0, 0, 0);

  private final long receivedAt;
  private final double before;
  private final double nanosPerUnit;
  private final double granted;
  private double used;
  /** Units spent on calls (not given back), and when the last was. */
  private double spent;
  private long lastSpentAt;

  /**
   * @param before the bucket's units before the grant (negative when already lent out)
   * @param rate the fleet's units per second; 0 when it knows no pace (every unit due at once)
   */
  Lease(long receivedAt, double before, double rate, double granted) {
    this.receivedAt = receivedAt;
    this.before = before;
    this.nanosPerUnit = rate > 0 ? 1e9 / rate : 0;
    this.granted = granted;
  }

  /** Whether the units left cover a call of {@code cost}. */
  boolean covers(double cost) {
    return used + cost <= granted + 1e-9;
  }

  /** When the next {@code cost} units fall due. */
  long dueOf(double cost) {
    double seconds = Math.max(0, used + cost - before) * nanosPerUnit;
    return receivedAt + (long) Math.min(seconds, Long.MAX_VALUE / 2.0);
  }

  /** Spends the next {@code cost} units (which {@link #covers} and are due) at {@code now}. */
  void spend(double cost, long now) {
    used += cost;
    spent += cost;
    lastSpentAt = now;
  }

  /**
   * Whether calls spent every unit, the last less than {@code recent} before {@code now}: the
   * instance sends as fast as its leases let it.
   */
  boolean spentWholeWithin(long recent, long now) {
    return granted > 0 && spent >= granted - 1e-9 && now - lastSpentAt < recent;
  }

  /**
   * Whether the fleet's bucket lent some of these units past empty: they fall due one after
   * another, after the answer, so the fleet sends at its pace.
   */
  boolean lentPastEmpty() {
    return nanosPerUnit > 0 && granted > before + 1e-9;
  }

  /**
   * Whether the first unit fell due within {@code nanos} of the answer: the fleet's schedule was
   * that shallow when the bucket lent these units.
   */
  boolean firstDueWithin(long nanos) {
    return firstDueAfter() <= nanos;
  }

  /**
   * How long after the answer the first unit falls due: 0 where the bucket held it, else how far
   * ahead the fleet's schedule ran when the bucket lent these units.
   */
  long firstDueAfter() {
    return (long) Math.min(Math.max(0, 1 - before) * nanosPerUnit, Long.MAX_VALUE / 2.0);
  }

  /** Units granted. */
  double granted() {
    return granted;
  }

  /** Units not spent yet. */
  double left() {
    return Math.max(0, granted - used);
  }

  /** Gives up every unit left; returns how many, for the fleet. */
  double surrender() {
    double left = left();
    used = granted;
    return left;
  }

  /**
   * Gives up the units that fell due more than {@code validity} before {@code now} and were not
   * spent; returns how many, for the fleet.
   */
  double expire(long now, long validity) {
    long overdueBefore = now - validity;
    if (overdueBefore < receivedAt) {
      return 0;
    }
    double overdueUpTo = nanosPerUnit == 0
        ? granted
        : before + (overdueBefore - receivedAt) / nanosPerUnit;
    double expired = Math.min(granted, Math.floor(overdueUpTo + 1e-9)) - used;
    if (expired <= 0) {
      return 0;
    }
    used += expired;
    return expired;
  }

  @Override
  public String toString() {
    return "Lease{" + used + "/" + granted + " before=" + before + '}';
  }
}
