package dev.polite.redis;

/**
 * The fleet's pause as one key of this instance holds it: until when every call holds back
 * (ticker nanoseconds), and whether a refusal began it.
 *
 * <p>Immutable, so that a caller reading it without the key's lock (every step does) sees an end
 * and its cause from the same news. Every length it is made from is cut to {@link #MAX_MICROS}
 * and added saturating: a custom dialect's {@code Long.MAX_VALUE} must neither wrap into the past
 * here nor overflow the script's sums.
 *
 * @param until when the pause ends; {@code Long.MIN_VALUE} when the key is not paused
 * @param forRefusal whether a refusal (a 429) began it, not a spent quota; read only while paused,
 *     so an ended pause keeps the cause it had
 */
record FleetPause(long until, boolean forRefusal) {
  /** Not paused. */
  static final FleetPause NONE = new FleetPause(Long.MIN_VALUE, false);

  /**
   * The longest pause told to or taken from the fleet, in microseconds: 365 days, the longest
   * delay the sdk's headers believe. A larger figure (a custom dialect's Long.MAX_VALUE) is cut.
   */
  static final long MAX_MICROS = 365L * 24 * 3600 * 1_000_000;

  /** {@code micros} as the fleet is told it: never negative, at most {@link #MAX_MICROS}. */
  static long cut(long micros) {
    return Math.min(MAX_MICROS, Math.max(0, micros));
  }

  /** {@code micros} (cut) after {@code now}, in nanoseconds. */
  static long after(long now, long micros) {
    return later(now, cut(micros) * 1000);
  }

  /** {@code now + nanos}, saturated: a pause of Long.MAX_VALUE must not wrap into the past. */
  static long later(long now, long nanos) {
    long sum = now + nanos;
    return ((now ^ sum) & (nanos ^ sum)) < 0 ? Long.MAX_VALUE : sum;
  }

  /** A pause of {@code micros} (cut) from {@code now}, for {@code forRefusal}. */
  static FleetPause of(long now, long micros, boolean forRefusal) {
    return new FleetPause(after(now, micros), forRefusal);
  }

  /** This pause held {@code micros} (cut) from {@code now} instead, for the cause it has. */
  FleetPause heldFor(long now, long micros) {
    return of(now, micros, forRefusal);
  }

  /** This pause over (its cause kept: nobody reads it until the next pause sets its own). */
  FleetPause over() {
    return new FleetPause(Long.MIN_VALUE, forRefusal);
  }

  /** Whether this pause ends after {@code other}: news, rather than what the key knew. */
  boolean outlasts(FleetPause other) {
    return until > other.until;
  }

  /** Nanoseconds left from {@code now}; 0 when over. */
  long left(long now) {
    return until > now ? until - now : 0;
  }
}
