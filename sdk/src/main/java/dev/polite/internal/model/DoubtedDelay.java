package dev.polite.internal.model;

import dev.polite.RateLimitSignals;
import dev.polite.internal.Nanos;
import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * A refusal that names a delay no call may wait and longer than any common window ({@link
 * #PLAUSIBLE}, an hour) on a key that shows no limit: believed only once the refusals that follow
 * confirm it.
 *
 * <h2>Why doubt it</h2>
 * A key that shows no limit (no count, no policy, on any answer) gives polite nothing to weigh a
 * delay against. A long delay believed pauses every call of the key for as long as calls may wait
 * and fails them meanwhile; when the server meant it (a spent daily quota that says only
 * {@code Retry-After}), that is right. When it did not (a proxy's or an error path's refusal of
 * one call, with a Retry-After of a day, on a server that admits the next call at once), one such
 * answer in ten loses nearly every call. What tells them apart is what the server does next: a
 * spent quota refuses every call sent after it, a stray refusal admits the next ones.
 *
 * <h2>The rule, and its price</h2>
 * The first such refusal is doubted: its call gives up (it cannot wait the delay), and the key
 * goes on as if it had not come, learning nothing from it. The doubt ends when a call sent after
 * it is admitted. It becomes belief when {@value #CONFIRMING} refusals with a long delay of calls
 * sent after it come, none of those calls admitted: the answer that confirms it then pauses the
 * key as any long delay does ({@link KeyPause}: its calls fail at once, one probe per max wait).
 * Refusals of calls sent before the doubt began were sent on the same evidence and count for
 * neither. So a stray refusal costs only its own call; one that every tenth answer carries is
 * believed by mistake with odds of one in a thousand. A spent quota that names only its delay
 * costs the server the refusals of the calls sent until the {@value #CONFIRMING}rd comes back:
 * {@value #CONFIRMING} for one caller, about as many as the callers for more. The fleet hears of
 * the delay once it is believed, not before ({@link KeyPause} tells it).
 *
 * <p>Not thread-safe: part of {@link KeyModel}. Times are ticker nanoseconds.
 */
public final class DoubtedDelay {
  /** Refusals of calls sent after the doubted one, none admitted, that confirm its delay. */
  public static final int CONFIRMING = 3;
  /**
   * The longest delay believed at once, when calls may not wait that long: an hour, the longest
   * common window (a per-hour quota says so bare, as GitHub's unauthenticated one once did). A
   * day, a week, the epoch read as a delay: doubted.
   */
  static final long PLAUSIBLE = 3_600_000_000_000L;

  private final long maxWaitNanos;
  /** When the doubted refusal came, or MIN_VALUE while none is doubted. */
  private long since = Long.MIN_VALUE;
  private int refusedSince;

  DoubtedDelay(long maxWaitNanos) {
    this.maxWaitNanos = maxWaitNanos;
  }

  /**
   * Reads a refusal of a call sent at {@code sentAt} to a key that shows no limit and is not
   * paused.
   *
   * @return whether the refusal is set aside: its delay is doubted (its call gives up, the key
   *     learns nothing from it), or it was sent before the doubt began; false for a delay any
   *     call may wait, and for the refusal that confirms a doubted one
   */
  boolean doubts(Answer answer, RateLimitSignals signals, long sentAt, long now) {
    if (!answer.refused() || !pastAnyWait(signals.retryAfter())) {
      return false;
    }
    if (since == Long.MIN_VALUE) {
      since = now;
      refusedSince = 0;
      return true;
    }
    if (sentAt < since) {
      return true;
    }
    if (++refusedSince < CONFIRMING) {
      return true;
    }
    since = Long.MIN_VALUE;
    return false;
  }

  /** A call sent at {@code sentAt} was admitted: one sent after the doubted refusal ends the doubt. */
  void admitted(long sentAt) {
    if (since != Long.MIN_VALUE && sentAt >= since) {
      since = Long.MIN_VALUE;
    }
  }

  /** Whether a refusal is doubted. */
  boolean doubting() {
    return since != Long.MIN_VALUE;
  }

  private boolean pastAnyWait(@Nullable Duration delay) {
    return delay != null && Nanos.of(delay) > Math.max(maxWaitNanos, PLAUSIBLE);
  }

  @Override
  public String toString() {
    return doubting() ? "doubting a delay (" + refusedSince + " refused since)" : "";
  }
}
