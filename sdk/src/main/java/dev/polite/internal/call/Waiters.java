package dev.polite.internal.call;

import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The scheduled attempts waiting at one key, and how they are woken: those at the closed gate by
 * the next signal (an answer, a failure, a freed place: anything that may have opened it), those
 * asleep on a reservation by its voiding (a pause began, a cut), so that they queue again, or are
 * told the key is paused, now: a call waiting for its token at an hourly quota's pace would
 * otherwise sleep for minutes after the quota was spent.
 *
 * <h2>Each once, and gone when done</h2>
 * An attempt is woken once per wait: its wake-up is taken as it runs, and it registers again if
 * it must wait again. It leaves when it is granted or released (cancelled, out of patience), not
 * at the signal only: a key whose one call in flight stalls would otherwise keep every timed-out
 * call it ever turned away. A wake-up runs under the key's lock, so it must only hand work on or
 * unpark a thread.
 *
 * <h2>The epoch</h2>
 * The model counts the pauses begun and the cuts ({@link dev.polite.internal.model.KeyModel#epoch}):
 * each voids every reservation then held. The count last seen under the lock is kept here, for a
 * blocking sleeper to read without the lock: its reservation was voided when the count moved.
 *
 * <p>Guarded by its key's lock, but for {@link #epoch}.
 */
final class Waiters {
  /** Attempts at the closed gate, in the order they came, each once. */
  private final Set<Acquisition> atGate = new LinkedHashSet<>();
  /** Attempts asleep on a reservation. */
  private final Set<Acquisition> asleep = new HashSet<>();
  /** The model's epoch as last seen under the lock. */
  private volatile long epoch;

  /** {@code attempt} waits at the closed gate; {@code wake} runs at the next signal. */
  void atGate(Acquisition attempt, Runnable wake) {
    attempt.onSignal = wake;
    atGate.add(attempt);
  }

  /** {@code attempt} sleeps on its reservation; {@code wake} runs if the reservation is voided. */
  void asleep(Acquisition attempt, Runnable wake) {
    attempt.onVoid = wake;
    asleep.add(attempt);
  }

  /** {@code attempt} no longer waits at the gate. */
  void forgetAtGate(Acquisition attempt) {
    if (attempt.onSignal != null) {
      attempt.onSignal = null;
      atGate.remove(attempt);
    }
  }

  /** {@code attempt} no longer sleeps on a reservation. */
  void forgetAsleep(Acquisition attempt) {
    if (attempt.onVoid != null) {
      attempt.onVoid = null;
      asleep.remove(attempt);
    }
  }

  /** {@code attempt} waits no more: granted or released. */
  void forget(Acquisition attempt) {
    forgetAsleep(attempt);
    forgetAtGate(attempt);
  }

  /** Whether no scheduled attempt waits, at the gate or asleep. */
  boolean none() {
    return atGate.isEmpty() && asleep.isEmpty();
  }

  /** How many attempts wait at the gate. */
  int atGate() {
    return atGate.size();
  }

  /** Wakes every attempt waiting at the gate: what held it closed may have changed. */
  void signal() {
    if (!atGate.isEmpty()) {
      List<Acquisition> woken = List.copyOf(atGate);
      atGate.clear();
      for (Acquisition attempt : woken) {
        Runnable wake = attempt.onSignal;
        attempt.onSignal = null;
        if (wake != null) {
          wake.run();
        }
      }
    }
  }

  /**
   * The model's epoch is now {@code current}: when it moved, the reservations were voided, and
   * every attempt asleep on one is woken.
   */
  void voided(long current) {
    if (current == epoch) {
      return;
    }
    epoch = current;
    if (!asleep.isEmpty()) {
      List<Acquisition> woken = List.copyOf(asleep);
      asleep.clear();
      for (Acquisition attempt : woken) {
        Runnable wake = attempt.onVoid;
        attempt.onVoid = null;
        if (wake != null) {
          wake.run();
        }
      }
    }
  }

  /** The model's epoch as last seen under the lock; read without it. */
  long epoch() {
    return epoch;
  }

  /** Where {@code attempt} waits, for diagnostics. */
  String describe(Acquisition attempt) {
    return "atGate=" + atGate.contains(attempt) + " asleep=" + asleep.contains(attempt);
  }
}
