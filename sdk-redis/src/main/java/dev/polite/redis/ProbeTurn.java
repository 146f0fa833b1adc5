package dev.polite.redis;

/**
 * Whether this instance may send the fleet's probe: the one call that re-verifies a fleet pause
 * longer than a call may wait. The lease script hands the role to one instance at a time
 * ({@code lease.lua}); this is what the script last told this instance of it.
 *
 * <ul>
 *   <li><b>Granted:</b> the script made this instance the prober. One call may go until the
 *       grant ends, as long as a pause stands unverified (the interceptor's max wait): the script
 *       gives the role away after that much time without an answer.
 *   <li><b>Waiting:</b> another instance probes, or the pause is younger than a max wait. Until
 *       the script's time is up, this instance does not ask again, and its calls fail fast with
 *       the pause's rest. Asking as soon as the prober's grant ran out, but before the prober's
 *       answer reached Redis, it could win and send a second probe for the fleet.
 * </ul>
 *
 * <p>Times are ticker nanoseconds, added saturating ({@link FleetPause#later}). Not thread-safe:
 * its {@link RedisSharedKey} holds it under its lock.
 */
final class ProbeTurn {
  /** The interceptor's max wait, as its probe asked: how long a fleet pause stands unverified. */
  private long everyNanos;
  /** This instance may send the fleet's probe until then. */
  private long grantedUntil = Long.MIN_VALUE;
  /** The script said not to ask to probe again before then. */
  private long notBefore = Long.MIN_VALUE;

  /** How long a pause stands unverified, as the interceptor's probe said (its max wait). */
  void every(long nanos) {
    everyNanos = nanos;
  }

  /** {@link #every} in microseconds, as the script reads it. */
  long everyMicros() {
    return everyNanos / 1000;
  }

  /** Whether this instance may ask the script for the role: it holds no grant and waits for none. */
  boolean mayAsk(long now) {
    return now >= grantedUntil && now >= notBefore;
  }

  /** Takes the grant for one call, if one stands: one probe per grant. */
  boolean takeGrant(long now) {
    if (now < grantedUntil) {
      grantedUntil = Long.MIN_VALUE;
      return true;
    }
    return false;
  }

  /** Whether the script said to wait before asking again. */
  boolean waiting(long now) {
    return now < notBefore;
  }

  /** The script made this instance the prober, in an answer read at {@code receivedAt}. */
  void granted(long receivedAt) {
    grantedUntil = FleetPause.later(receivedAt, everyNanos);
  }

  /** The script said to ask again no sooner than {@code micros} after {@code receivedAt}. */
  void waitFor(long receivedAt, long micros) {
    notBefore = FleetPause.after(receivedAt, micros);
  }

  /** New evidence on the pause (or its end): the script says afresh when it may be re-verified. */
  void waitOver() {
    notBefore = Long.MIN_VALUE;
  }

  /** The pause ended: no grant and no wait stand. */
  void over() {
    grantedUntil = Long.MIN_VALUE;
    notBefore = Long.MIN_VALUE;
  }
}
