package dev.polite;

/**
 * One key's share of a {@link SharedState}: the fleet's tokens, pause and pace as this instance
 * sees them, and what this instance tells the fleet. Made by {@link SharedState#join}.
 *
 * <p>The key's own lock is held around every call here, so an implementation must never wait:
 * {@link #take} answers from what it has, and asks its store in the background when it needs
 * more. Times are the {@link Ticker}'s nanoseconds given to {@code join}.
 *
 * <p>Thread-safe: calls come from callers' threads under the key's lock, answers from the
 * store's own threads.
 */
public interface SharedKey {
  /** What {@link #take} answers while it has asked the store: the key's news callback will run. */
  long AWAIT = -1;

  /**
   * What {@link #take} answers for a call whose cost the fleet can never lend (more than its
   * budget ever holds at once): the call is refused at once, with a {@link RateLimitedException}
   * that says so, instead of waiting for tokens that will not come.
   */
  long NEVER = Long.MAX_VALUE;

  /**
   * Takes the fleet's tokens for one call that is otherwise free to go.
   *
   * @param cost the call's cost, in the key's units
   * @param sendRate how many calls a second this instance has been sending to the key, a hint for
   *     how many tokens to lease at once
   * @param inFlight this instance's calls to the key let go and not yet answered
   * @return 0 when the tokens are the call's (it goes now); else the nanoseconds until they fall
   *     due, {@link #AWAIT} when only the store's answer (or its time-out) can tell, or
   *     {@link #NEVER} when they never will
   */
  long take(double cost, double sendRate, int inFlight, long now);

  /** How long the fleet says every call must still hold back, in nanoseconds; 0 when not. */
  long pauseLeft(long now);

  /**
   * Whether the fleet's pause began with a refusal (a 429 another instance met), not a spent
   * quota: news about the pace, which a key discovering its own takes as a refusal of its own.
   */
  boolean pauseForRefusal();

  /**
   * This instance learned the key's pace: advertised by the server, or discovered from its
   * refusals. A discovered {@code rate} is what this instance's own rate controller found; the
   * fleet's pace is the fleet's to find (one instance's controller sees only its own calls), and
   * the key's bucket does not pace by it in a fleet: {@link #take} does. Infinite {@code rate}
   * means no pace.
   */
  void paceLearned(double rate, double burst, boolean advertised, long now);

  /**
   * This instance paused the key for {@code pauseNanos}: for a refusal (a 429, a 503), which is
   * news the fleet should hear at once, or for a spent quota, which the fleet's own bucket has
   * mostly seen coming and may hear with the next request.
   */
  void paused(long pauseNanos, boolean refused, long now);

  /**
   * This instance's call would re-verify the fleet's pause, which has stood as long as a call may
   * wait: asks whether it may, since one call for the whole fleet is enough. The call's answer
   * ends the pause ({@link #resumed}) or renews it ({@link #paused}) for every instance.
   *
   * <p>The default lets it go, so that an implementation that does not coordinate probes
   * re-verifies once per instance per {@code everyNanos}, and never holds the fleet for ever.
   *
   * @param everyNanos the caller's max wait: how long a pause stands before it is re-verified
   * @return 0 when the call goes as the fleet's probe; {@link #AWAIT} when only the store's answer
   *     can tell; else how long the call would wait, the fleet's pause left (another instance
   *     probes, or the pause is younger than {@code everyNanos} in the fleet's eyes), so that it
   *     fails fast
   */
  default long probe(double cost, long everyNanos, long now) {
    return 0;
  }

  /** A probe found the key's long pause over: the fleet's pause ends too. */
  void resumed(long now);

  /**
   * The server reported {@code remaining} calls left in its window, while this instance had
   * {@code inFlight} others on the wire that the count may not include.
   */
  void remaining(long remaining, int inFlight, long now);

  /**
   * How many instances the fleet counts on this key now, this one included (1 alone). While no
   * pace is known, each instance widens its window of calls in flight by its share, so the
   * fleet's together grows as one instance's would.
   */
  int instances();

  /** The instance forgot the key: tokens it leased and did not use go back to the fleet. */
  void leave();
}
