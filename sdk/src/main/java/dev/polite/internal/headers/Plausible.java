package dev.polite.internal.headers;

/**
 * The one place that decides whether a value read from a response can be true. Every dialect asks
 * here before a count, delay, instant or window reaches {@link dev.polite.RateLimitSignals}.
 *
 * <p>The governing rule: <b>a value that cannot
 * be true is absent, not clamped into a decision.</b> Clamped, a negative count would become 0
 * and a reset over a year would become a year, so one 200 carrying
 * {@code X-RateLimit-Remaining: 0} (or {@code -3}) and {@code X-RateLimit-Reset:
 * 99999999999999999999} would pause a host for a year. An absent value leaves the caller to its
 * own pacing and backoff, which recover by themselves; a garbage pause does not.
 * Every value dropped here flags the reading {@linkplain dev.polite.RateLimitSignals#isAnomalous()
 * anomalous} so that the caller can log it.
 *
 * <ul>
 *   <li><b>Numbers</b> (thousandths from {@link Numbers#milli}): {@code -1} is the documented
 *       "unknown" (Spring Cloud Gateway on a Redis error, Azure OpenAI). It is absent, quietly,
 *       in every field. Any other negative is malformed: absent, not 0 (a gateway once sent
 *       {@code -27689}). So are numbers no field truthfully carries ({@link Numbers#IMPLAUSIBLE}):
 *       more than 15 integer digits, exponents, NaN, Infinity.
 *   <li><b>Delays</b> (Retry-After and kin, resets, JSON hints, {@code Age}): 0 to a year. Nothing
 *       a client could act on lies beyond a year (the longest quota window servers name is a
 *       year, Kong's), and what lies beyond is a misread unit or garbage.
 *   <li><b>Instants</b> (epochs, HTTP and ISO dates) are measured from the response's {@code Date}
 *       (our clock without one) and are believed within a year of it, either way. One in the past
 *       within that year is a reset that has already happened. It means "quota restored now",
 *       which is 0 (Anthropic sends one a second before {@code Date}). One
 *       further away is an epoch read where a delay belongs, or a date with a broken year, and is
 *       absent (step 3's cross-check).
 *   <li><b>Windows</b>: more than 0, up to a year. A zero window would make an infinite rate.
 *   <li><b>Remaining above the same policy's quota</b>: the remaining is absent and the quota is
 *       kept. One of them is wrong, and this is the safe reading either way. An absent remaining
 *       cannot pause or overfill anything: the key paces at quota per window. Keeping an
 *       over-count would let the key's bucket hold more calls than the server allows. Clamping it
 *       to the quota would claim a full bucket the server never reported. Dropping the quota
 *       instead would lose the pace.
 *   <li><b>Several values for a singleton field</b> (repeated or comma-joined lines): the
 *       implausible members are dropped first; the most conservative of the rest is taken (the
 *       longest delay, the smallest remaining).
 * </ul>
 *
 * <p>Each rule returns the value when it can be true, {@link #ABSENT} when nothing was said (or
 * the documented "unknown"), and {@link #DROPPED} when something was said that cannot be true.
 * {@link Reading#kept} turns DROPPED into ABSENT and flags the reading.
 */
final class Plausible {
  /** The longest delay, window or distance from {@code Date} believed: 365 days. */
  static final long YEAR_MILLIS = 365L * 24 * 3600 * 1000;
  /** Not said, or said to be unknown. */
  static final long ABSENT = -1;
  /** Said, but cannot be true: the caller drops it and flags the reading. */
  static final long DROPPED = -2;
  /** {@code -1} in thousandths: the documented "unknown". */
  private static final long UNKNOWN_MILLI = -1000;

  private Plausible() {}

  /** A number in thousandths as {@link Numbers#milli} read it: kept when not negative. */
  static long number(long milli) {
    if (milli == Numbers.INVALID || milli == UNKNOWN_MILLI) return ABSENT;
    return milli >= 0 ? milli : DROPPED;
  }

  /** A delay in milliseconds: kept from 0 to a year. */
  static long delay(long millis) {
    return millis >= 0 && millis <= YEAR_MILLIS ? millis : DROPPED;
  }

  /** A delay in whole seconds, as milliseconds: kept from 0 to a year. */
  static long delaySeconds(long seconds) {
    return seconds >= 0 && seconds <= YEAR_MILLIS / 1000 ? seconds * 1000 : DROPPED;
  }

  /** A window in milliseconds: kept above 0 and up to a year. */
  static long window(long millis) {
    return millis > 0 && millis <= YEAR_MILLIS ? millis : DROPPED;
  }

  /**
   * The delay from {@code baseMillis} (the response's time) until {@code targetMillis}: 0 when
   * the target passed less than a year before, rounded up to the second when the target has
   * second resolution, dropped when the target lies more than a year away either way.
   */
  static long until(long targetMillis, long baseMillis, boolean secondResolution) {
    // both sides come from four-digit years or at most 15-digit numbers: no overflow
    long d = targetMillis - baseMillis;
    if (d < -YEAR_MILLIS || d > YEAR_MILLIS) return DROPPED;
    if (d <= 0) return 0;
    return secondResolution ? (d + 999) / 1000 * 1000 : d; // a year is whole seconds: still within it
  }

  /** A policy's remaining count beside its quota (either may be ABSENT): dropped when above it. */
  static long remaining(long remaining, long quota) {
    return quota >= 0 && remaining > quota ? DROPPED : remaining;
  }
}
