package dev.polite.internal.model;

import dev.polite.RateLimitSignals;
import dev.polite.internal.Nanos;
import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * A budget the server counts and never says when it refills: a remaining count with no reset and
 * no window (Azure's {@code x-ms-ratelimit-remaining-*}, Shopify's {@code used/limit}). Spent, not
 * paced: calls go while the count has room, past any pace the key found, and once the server says
 * it is empty the key pauses for the refill it learned, instead of meeting each empty bucket with
 * a refusal.
 *
 * <h2>The count</h2>
 * An admitted answer's count, less the calls reserved after its call (the server has not counted
 * them yet), is what the key may still send ({@link #left}). A report alone on the wire sets it;
 * with others on the wire it may only lower it: answers overtake each other, and an old report
 * raising it would send calls the server has already counted. Each call reserved takes one from
 * it. While it has room a call goes at once; without room, a call waits for the answers on the wire
 * to say more. After a pause or a refusal the count is not known again until an answer reports
 * it: one call goes alone, and its answer says how many may follow. So a window that reopened
 * whole takes its count in one round trip, and a window met in its middle only what it has left.
 *
 * <h2>The refill</h2>
 * The server names no reset, but it tells when it refuses: the delay its refusal names (the
 * Retry-After), or, for a bare refusal, the time from the count emptying to the first call it
 * admitted after (an upper bound: the key's probes go late, never early). Learnt once, an answer
 * that reports the count empty pauses the key for that long, as a spent quota's reset does. A
 * fixed window, a sliding log and a bucket all hold the next call back no longer than their last
 * refusal named from emptying: the window ends within it, the log's oldest call leaves it, the
 * bucket refills by then. Before it is learnt, an empty count lets the next call go at the key's
 * pace: one refusal, which teaches it. A refill longer than any call may wait (one stray refusal
 * naming a day) pauses nothing ahead: the call after the empty count asks the server, whose
 * refusal pauses the key as any long delay does, re-verified after the max wait.
 *
 * <h2>A count that lies</h2>
 * A refusal of a call the count had room for says the count is not the whole story: other clients
 * spend it too, or it counts something else. The count is then unknown until the next report. A
 * second such period (a count trusted again and refused again) drops it for good, and the key
 * paces as if it reported nothing: a server whose count never empties while it refuses costs at
 * most two rounds of refusals.
 *
 * <p>The count is the key's alone: in a fleet every instance spends it. It stops governing for
 * good when the key's calls are weighed (a count of calls says nothing of them) or its server
 * advertises a pace, and while it governs, no window is learnt from the shape of the answers
 * ({@link DiscoveredWindow}): the count says more.
 *
 * <p>Not thread-safe: part of {@link KeyModel}. Times are ticker nanoseconds.
 */
final class CountedBudget {
  /** Periods of trust a refusal may end before the count is dropped for good. */
  static final int STRIKES = 2;
  private static final long NONE = Long.MIN_VALUE;

  private final long maxWaitNanos;
  private boolean counting;
  private boolean dropped;
  private int strikes;
  /** Whether {@link #left} is a count an answer reported, less the calls since. */
  private boolean known;
  private long left;
  private long refill = NONE;
  /** When an answer last reported the count empty, while the refill is not known. */
  private long emptiedAt = NONE;

  /** @param maxWaitNanos the longest a call may wait: a longer refill pauses nothing ahead */
  CountedBudget(long maxWaitNanos) {
    this.maxWaitNanos = maxWaitNanos;
  }

  /**
   * Whether {@code signals} report a count this budget keeps: requests remaining, with no reset
   * and no window, on a key that shows no pace.
   */
  static boolean reports(RateLimitSignals signals) {
    return signals.remaining().isPresent() && signals.reset() == null && signals.window() == null
        && signals.countsRequests();
  }

  /** Whether the count governs the key's calls: reported, and not dropped. */
  boolean governs() {
    return counting && !dropped;
  }

  /**
   * Whether a new call must wait for an answer, with {@code inFlight} calls reserved or on the
   * wire: the count has no room for it (not known: one call asks), and an answer on the wire may
   * yet give some. With nothing on the wire, the call goes at the key's pace.
   */
  boolean holds(int inFlight) {
    if (!governs() || inFlight == 0) {
      return false;
    }
    return !known || left < 1;
  }

  /**
   * Takes a call of {@code cost} from the count.
   *
   * @return whether the count had room for it: the call may go past the key's pace
   */
  boolean take(double cost) {
    if (!governs() || !known) {
      return false;
    }
    boolean room = left >= cost;
    left -= (long) Math.ceil(cost);
    return room;
  }

  /** A call reserved and not sent gives its place back. */
  void giveBack(double cost) {
    if (governs() && known) {
      left += (long) Math.ceil(cost);
    }
  }

  /**
   * An admitted answer reported {@code remaining}, to a call sent at {@code sentAt}, with
   * {@code unseen} calls reserved after it still in flight.
   *
   * @param exact the call was the key's only one from grant to answer, or the count is not known:
   *     the report sets the count, where others may only lower it
   * @return the pause the key takes now, the count empty and the refill learnt; 0 when none
   */
  long admitted(long remaining, long unseen, boolean exact, long sentAt, long now) {
    if (dropped) {
      return 0;
    }
    counting = true;
    if (emptiedAt != NONE && sentAt > emptiedAt) {
      refill = sentAt - emptiedAt; // the first call admitted after the count emptied, sent then
      emptiedAt = NONE;
    }
    long reported = Math.max(0, remaining - unseen);
    left = exact || !known ? reported : Math.min(left, reported);
    known = true;
    if (remaining > 0) {
      return 0;
    }
    if (refill == NONE) {
      emptiedAt = emptiedAt == NONE ? now : emptiedAt;
      return 0;
    }
    if (refill > maxWaitNanos) {
      return 0; // no call may wait it: the next asks, and its refusal's delay pauses the key (KeyPause)
    }
    known = false; // after the pause, one call asks what the refill left
    return refill;
  }

  /**
   * A refusal, naming {@code delay} (null: none): the refill is learnt from a delay named, and the
   * count is not known until an answer reports it again. Where it had room, this is a strike
   * against it ({@link #STRIKES}).
   */
  void refused(@Nullable Duration delay, long now) {
    if (!governs()) {
      return;
    }
    if (delay != null) {
      refill = Nanos.of(delay);
      emptiedAt = NONE;
    } else if (emptiedAt == NONE && refill == NONE) {
      emptiedAt = now;
    }
    if (known && left >= 1 && ++strikes >= STRIKES) {
      dropped = true;
    }
    known = false;
  }

  /** The key's pace is advertised, or its calls weighed: the count governs nothing from now. */
  void drop() {
    dropped = true;
  }

  /** A pause began: what the count was is no longer known. */
  void paused() {
    known = false;
  }

  @Override
  public String toString() {
    if (!governs()) {
      return dropped ? "count dropped" : "";
    }
    return (known ? left + " left" : "count unknown")
        + (refill == NONE ? "" : ", refill " + refill / 1e9 + " s");
  }
}
