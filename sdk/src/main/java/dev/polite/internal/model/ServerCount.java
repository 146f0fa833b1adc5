package dev.polite.internal.model;

import dev.polite.TokenBucket;

/**
 * The server's remaining count, read against the key's own: each report sets what the key's
 * bucket holds, with the calls the server has not counted yet taken off, and raises it where
 * reports overtaken by others made the key undercount. It keeps one fact of its own, the lowest
 * count reported since the key's wire was last empty.
 *
 * <h2>Reading a report</h2>
 * A report is exact when its call was the key's only one from its reservation to its answer (or
 * when the key's count means nothing yet): the key then holds the count less its calls in flight.
 * With others in flight, the server may have counted some after the report, or not yet seen them,
 * and answers overtake each other: such a report may only lower the key's count (its own refill at
 * the advertised rate raises it). What the server had not seen is taken to be the calls reserved
 * after the report's (those before it went first, and were most likely counted). Subtracting
 * every call in flight would undercount at each report, and against an hourly quota no refill
 * repays that, so calls would fail with quota left.
 *
 * <h2>Settling an undercount</h2>
 * Where that guess is wrong (a call reserved earlier reached the server later), the key is raised
 * again to what the server has at least. Take the answered call the server counted last: every
 * call it counted after that one is still on the wire (one answered would have been counted last),
 * and its report is one of those since the wire was last empty, so it is at least the lowest of
 * them (counts fall as the server counts; a refill or a new window only raises them). So the server
 * has at least the lowest report less the calls on the wire; with none on the wire, the lowest
 * report exactly (when no refill came since), and the next reports start afresh. Checked at every
 * report, not only as the wire empties: two overtaken reports can leave the key two short with one
 * call on the wire, more than that call's answer may settle.
 *
 * <p>Not thread-safe: part of {@link KeyModel}; times are ticker nanoseconds.
 */
final class ServerCount {
  /** {@link #report}'s answer when the key's count stands: test it with {@link #stands}. */
  static final double STANDS = Double.NaN;

  private final TokenBucket bucket;
  private final CallLedger ledger;
  /** The lowest remaining count reported since a call last went with none on the wire. */
  private long lowestReported = Long.MAX_VALUE;

  ServerCount(TokenBucket bucket, CallLedger ledger) {
    this.bucket = bucket;
    this.ledger = ledger;
  }

  /**
   * Reads a report of {@code remaining} in the answer to {@code permit}'s call, and sets the
   * bucket's tokens as it allows.
   *
   * @param exact the report may raise the key's count: the call was the key's only one from grant
   *     to answer (so the server's count is exact), or the key's count means nothing yet
   * @return the count to raise the key to once its reservations are voided (they counted on
   *     tokens the key lacked, and queue again at it), or {@link #STANDS}
   */
  double report(long remaining, boolean exact, Permit permit, long now) {
    if (exact) {
      bucket.setTokens(remaining - ledger.inFlight(), now);
    } else {
      long unseen = ledger.after(permit);
      bucket.setTokens(Math.min(bucket.tokens(now), remaining - unseen), now);
    }
    lowestReported = Math.min(lowestReported, remaining);
    int onTheWire = ledger.onTheWire();
    long floor = lowestReported - onTheWire;
    if (onTheWire == 0) {
      lowestReported = Long.MAX_VALUE;
    }
    double believed = bucket.tokens(now) + ledger.reservedCost();
    if (floor - believed < 0.5) {
      return STANDS; // counts are whole: a smaller gap is the refill since, not a call's worth
    }
    return Math.min(floor, bucket.capacity());
  }

  /** Whether {@code raiseTo}, as {@link #report} answered it, leaves the key's count as it is. */
  static boolean stands(double raiseTo) {
    return Double.isNaN(raiseTo);
  }

  /**
   * Whether a call of {@code cost} that lacks tokens may yet be settled by the answers on the
   * wire: no more tokens are missing than there are calls on the wire, since overtaken reports
   * read as if those were unseen can have undercounted by that many, and each of their answers
   * raises the count to what the server has at least.
   */
  boolean maySettle(double cost, long now) {
    int onTheWire = ledger.onTheWire();
    return onTheWire > 0 && bucket.tokens(now) >= -cost - onTheWire - 1e-9;
  }
}
