package dev.polite.internal.call;

import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * In observation mode, what enforcing would be doing to one key's calls now: sending them at
 * once, holding them back (for the key's pause or pace), or refusing them (a wait longer than a
 * call may wait), logged once per change of verdict, so that a week of observing reads as a few
 * lines per key, not one per call.
 *
 * <h2>Why the verdict falls slowly</h2>
 * A key sent near its pace flips call by call between a wait of zero and a wait of a few
 * milliseconds; a line per flip would be a line per call. So a verdict rises at once (the first
 * call that would wait, or be refused, logs it) and falls only when a call comes that would be
 * held less and no call had the higher verdict for {@link #QUIET_NANOS}: one second, longer than
 * the gap between two held calls of any key paced faster than one call a second, which are the
 * keys that flip; a slower key's held calls are each a second or more apart and would wait as
 * long, and its line then says what a user sees.
 *
 * <p>Not thread-safe: used under its key's lock.
 */
final class WouldHold {
  private static final Logger log = LoggerFactory.getLogger("dev.polite");
  static final long QUIET_NANOS = 1_000_000_000L;

  /** What enforcing would do to a call now, in rising order. */
  enum Verdict { AT_ONCE, HOLD, REFUSE }

  private final String key;
  private Verdict verdict = Verdict.AT_ONCE;
  /** When a call last had the verdict now held (AT_ONCE: never read). */
  private long heldAt;

  WouldHold(String key) {
    this.key = key;
  }

  /**
   * A call went at once that enforcing would have treated with {@code seen}, after a wait of
   * {@code waitNanos} (the wait it would have needed, when refused).
   */
  void saw(Verdict seen, long waitNanos, String why, long now) {
    if (seen.compareTo(verdict) >= 0) {
      if (seen != verdict) {
        verdict = seen;
        logChange(waitNanos, why);
      }
      heldAt = now;
    } else if (now - heldAt >= QUIET_NANOS) {
      verdict = seen;
      heldAt = now;
      logChange(waitNanos, why);
    }
  }

  Verdict verdict() {
    return verdict;
  }

  private void logChange(long waitNanos, String why) {
    switch (verdict) {
      case AT_ONCE -> log.info("polite (observing): calls to {} would go at once again", key);
      case HOLD -> log.info("polite (observing): calls to {} would wait, {} for {}", key,
          Duration.ofNanos(waitNanos), why);
      case REFUSE -> log.info("polite (observing): calls to {} would be refused without being "
          + "sent: {} would need a wait of {}, more than a call may wait", key, why,
          Duration.ofNanos(waitNanos));
    }
  }
}
