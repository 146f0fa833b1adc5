package dev.polite.internal.model;

import dev.polite.internal.Nanos;

/**
 * The window of a quota that the server names with a reset but no window (the older IETF drafts,
 * GitHub's {@code x-ratelimit-reset}): a belief built from the resets answers report, bounded by
 * their evidence.
 *
 * <h2>Why the longest reset, and why not just the longest</h2>
 * A reset never exceeds the window, so the longest one reported is the best lower bound on it, and
 * {@code quota / bound} errs fast rather than slow: harmless, since the server's remaining count
 * still sets the tokens and a spent quota still pauses until its reset. But a bound taken from one
 * answer is only as good as that answer. One wrong but plausible reset (200 days out, as a reset
 * that wobbled once did) would make the key pace at ten calls per 200 days and fail every call that
 * cannot wait for that, forever if the bound only grew. So each reading is checked against the
 * others by what every honest limiter shares: the instant a reset names ({@code now + reset})
 * never moves earlier. A fixed window names the same instant until it rolls over, a sliding window
 * or a bucket a later one as calls are counted.
 *
 * <h2>What it promises</h2>
 * <ul>
 *   <li>A reading longer than the belief is a <em>candidate</em> until a later answer names an
 *       instant no earlier than the candidate's (less the tolerance below): two answers agree, and
 *       it becomes the belief. Against a belief already held, the second must answer a call sent
 *       a believed window or more after the candidate came back: the calls of one window can meet
 *       the same glitch more than once (a server wrong on every 10th answer is wrong twice in a
 *       window of 20, and at 64 callers those two arrive side by side). One that names an earlier
 *       instant contradicts it, and it is dropped. Until then the key keeps pacing by the belief
 *       it had, so a wrong answer slows the key only when nothing a window long contradicts it. A
 *       window that truly grew is believed a window late, and the remaining count bounds the key
 *       meanwhile.
 *   <li>A belief that a later answer contradicts (it names an instant before the belief's, while
 *       that is still ahead) gives way at once to the contradicting reading.
 *   <li>A belief that no answer refreshes (a reading of at least half of it) for two of its
 *       windows expires to the longest reading seen since: a fixed window's resets run from the
 *       whole window down to nothing, so any two windows of calls show one of at least half.
 *   <li>With no belief yet, the window reads as one second: fast, and bounded as above.
 * </ul>
 *
 * <p>The tolerance is two seconds and a tenth of the reading: a reset sent in whole epoch seconds
 * and read against a {@code Date} in whole seconds is off by up to a second each way, so two honest
 * readings of one instant can differ by two; answers that overtake each other add their latency.
 *
 * <p>Not thread-safe: part of {@link KeyModel}. Times are ticker nanoseconds.
 */
final class InferredWindow {
  private static final long SECOND = 1_000_000_000L;
  private static final long NONE = 0;

  private long belief = NONE;
  private long beliefInstant;
  private long refreshedAt;
  private long longestSinceRefresh = NONE;

  private long candidate = NONE;
  private long candidateInstant;
  private long candidateAt;

  /** When the belief last grew, and what it was before, for {@link #believedReset}. */
  private long grewAt = Long.MIN_VALUE;
  private long beliefBefore = NONE;
  private long instantBefore;

  /** The window to pace by: the belief, at least one second. */
  long window() {
    return Math.max(SECOND, belief);
  }

  /** Whether two answers agreed on a window. */
  boolean confirmed() {
    return belief != NONE;
  }

  /**
   * The reset to believe of one that says a quota is spent, at {@code now}. One in line with the
   * belief (no longer than its window and the tolerance) is taken as it is. One past it is one
   * answer against the agreement of two or more: the quota comes back when the believed window
   * says, at the instant the agreeing answers named while that is still ahead, else within a
   * window. With no belief yet, every reset is taken as it is. An answer that made the belief grow
   * (learnt at {@code now}, just before) is judged by the belief before it: it cannot vouch for
   * itself, and a server wrong on every Nth answer can be wrong twice a window apart with nothing
   * between, the second time on a call that spent the quota.
   */
  long believedReset(long resetNanos, long now) {
    boolean ownWitness = grewAt == now; // learnt at the same instant: the answer asked about
    long judge = ownWitness ? beliefBefore : belief;
    if (judge == NONE || inLine(resetNanos, Math.max(SECOND, judge))) {
      return resetNanos;
    }
    long instant = ownWitness ? instantBefore : beliefInstant;
    return instant > now ? instant - now : Math.max(SECOND, judge);
  }

  /**
   * Takes the reset one answer reports at {@code now}, to a call sent at {@code sentAt}.
   *
   * @return whether the window to pace by changed
   */
  boolean observe(long resetNanos, long sentAt, long now) {
    long before = window();
    long reading = reading(resetNanos);
    long instant = Nanos.add(now, resetNanos);
    if (candidate != NONE) {
      if (instant < candidateInstant - tolerance(candidate)) {
        candidate = NONE; // contradicted: dropped
      } else if (belief == NONE || sentAt >= Nanos.add(candidateAt, belief)) {
        believe(candidate, candidateInstant, now);
        candidate = NONE;
      }
      // Else it agrees, but its call went within a window of the candidate's return: the same
      // window's word (one glitch can answer a burst, and a server that glitches on every Nth
      // answer glitches several times a window), so it is no second witness against the belief.
    }
    if (belief != NONE && now < beliefInstant && instant < beliefInstant - tolerance(belief)) {
      believe(reading, instant, now); // contradicted while its instant is still ahead
    } else if (reading > belief) {
      if (reading > candidate) {
        candidate = reading;
        candidateInstant = instant;
        candidateAt = now;
      }
    } else {
      longestSinceRefresh = Math.max(longestSinceRefresh, reading);
      if (reading >= belief / 2) {
        refreshed(instant, now);
      } else if (now - refreshedAt > Nanos.multiply(2, belief)) {
        believe(longestSinceRefresh, instant, now); // nothing bore it out for two windows
      }
    }
    return window() != before;
  }

  private void believe(long window, long instant, long now) {
    if (belief != NONE && window > belief) {
      grewAt = now;
      beliefBefore = belief;
      instantBefore = beliefInstant;
    }
    belief = window;
    beliefInstant = instant;
    refreshed(instant, now);
  }

  private void refreshed(long instant, long now) {
    beliefInstant = Math.max(beliefInstant, instant);
    refreshedAt = now;
    longestSinceRefresh = NONE;
  }

  /**
   * The window a reset bounds: the reset rounded up to a second, less one second, at least one
   * second. Less one: a reset sent as an epoch second and read against a Date in whole seconds can
   * read up to a second long, and half the pace of a one-second window is a worse error than a
   * tenth over a ten-second one (which the remaining count still bounds).
   */
  private static long reading(long resetNanos) {
    long seconds = resetNanos / SECOND + (resetNanos % SECOND == 0 ? 0 : 1);
    return Math.max(SECOND, Nanos.multiply(seconds, SECOND) - SECOND);
  }

  /** Whether a reset is in line with a window: no longer than it and the tolerance. */
  static boolean inLine(long resetNanos, long window) {
    return resetNanos <= Nanos.add(window, tolerance(window));
  }

  private static long tolerance(long window) {
    return 2 * SECOND + window / 10;
  }

  @Override
  public String toString() {
    return confirmed() ? "window=" + belief / 1e9 + "s" : "window unknown";
  }
}
