package dev.polite.internal;

import dev.polite.GiveUpReason;
import dev.polite.PoliteConfig;
import dev.polite.RateLimitSignals;
import dev.polite.RateLimitedException;
import java.io.IOException;
import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * The concurrent shell around one key's {@link KeyModel}: one lock, and the waiting. The model
 * decides (how long a pause lasts, whether the gate is open, what a call's tokens cost); this
 * class makes threads wait for it and wakes them when an answer may have changed it.
 *
 * <h2>Why one lock</h2>
 * Pace, pause, gate and counts change together when an answer arrives; one monitor per key keeps
 * them consistent and lets gate waiters be woken by {@code notifyAll}. Sleeps happen outside it.
 *
 * <p>Thread-safe.
 */
public final class KeyState {
  private final PoliteConfig config;
  private final KeyModel model;
  private volatile long lastUsed;

  KeyState(String key, PoliteConfig config, long now) {
    this.config = config;
    this.model = new KeyModel(key, config, now);
    this.lastUsed = now;
  }

  /** The key, as the key function made it. */
  public String key() {
    return model.key();
  }

  /** The key's retry budget. */
  public RetryBudget retryBudget() {
    return model.retryBudget();
  }

  long lastUsed() {
    return lastUsed;
  }

  synchronized boolean isIdle() {
    return model.inFlight() == 0;
  }

  /**
   * Waits until a call of {@code cost} may be sent: past any pause, through the gate, and with
   * its tokens paid. On return the call counts as in flight and must end in {@link #onAnswer} or
   * {@link #onFailure}.
   *
   * @return the call's permit, to hand back with its answer
   * @throws RateLimitedException when the wait would exceed the call's patience
   * @throws java.io.InterruptedIOException when the call is cancelled or the thread interrupted
   */
  public Permit acquire(double cost, Patience patience) throws IOException {
    KeyModel.Reservation reservation = null;
    boolean granted = false;
    long due = Long.MIN_VALUE;
    try {
      while (true) {
        long sleep;
        long now;
        synchronized (this) {
          now = config.ticker().read();
          lastUsed = now;
          long pause = model.pauseLeft(now);
          if (pause > 0) {
            sleep = pause;
          } else if (reservation != null && model.isStale(reservation)) {
            // Reserved at a pace a refusal has since cut: queue again at the new one, or every
            // call that had paid would go at once when the pause ends.
            reservation = null;
            due = Long.MIN_VALUE;
            notifyAll();
            continue;
          } else if (reservation != null) {
            granted = true;
            return grant(due == Long.MIN_VALUE ? now : Math.min(now, due), patience, reservation);
          } else if (model.gateClosed()) {
            if (!patience.awaitSignal(this)) {
              throw tooLong(null, "no answer yet from a call already in flight");
            }
            continue;
          } else {
            reservation = model.reserve(cost, now);
            sleep = reservation.waitNanos();
            if (sleep == 0) {
              granted = true;
              return grant(now, patience, reservation);
            }
          }
          if (!patience.allows(sleep, now)) {
            throw tooLong(Duration.ofNanos(sleep), pause > 0 ? "the key is paused" : "the key's pace");
          }
          if (reservation != null) {
            due = Nanos.add(now, sleep);
          }
        }
        patience.sleep(sleep, now);
      }
    } finally {
      if (reservation != null && !granted) {
        // Never hold tokens or a place in flight for a call that is not going.
        synchronized (this) {
          model.cancel(reservation, cost, config.ticker().read());
          notifyAll();
        }
      }
    }
  }

  private Permit grant(long at, Patience patience, KeyModel.Reservation reservation) {
    Permit permit = model.grant(at, reservation);
    if (patience.waited() > 0) {
      model.notify(l -> l.paced(key(), Duration.ofNanos(patience.waited())));
    }
    return permit;
  }

  /**
   * Learns from an answer to the call {@code permit} let go; see {@link KeyModel#onAnswer}.
   *
   * @return the time it was learned at, on the key's ticker, so the caller need not read it again
   */
  public long onAnswer(int status, RateLimitSignals signals, Permit permit) {
    long now;
    synchronized (this) { // read under the lock, so that the model sees time only move forward
      now = config.ticker().read();
      model.onAnswer(status, signals, permit, now);
      notifyAll();
    }
    if (signals.isRejection()) {
      model.notify(l -> l.rateLimited(key(), signals));
    }
    return now;
  }

  /** A call let go by {@link #acquire} ended without an answer. */
  public synchronized void onFailure() {
    model.onFailure();
    notifyAll();
  }

  /**
   * The wait a call of {@code cost} would face now: the pause and the pace, ignoring the gate.
   * Used to decide whether a retry can fit before the failed response is given up.
   */
  public synchronized long waitEstimate(double cost, long now) {
    return model.waitEstimate(cost, now);
  }

  /** The last signals any answer for this key carried. */
  public synchronized RateLimitSignals lastSignals() {
    return model.lastSignals();
  }

  private RateLimitedException tooLong(@Nullable Duration wait, String why) {
    model.notify(l -> l.gaveUp(key(), GiveUpReason.WAIT_TOO_LONG, wait == null ? Duration.ZERO : wait));
    String message = "polite: not sending to " + key() + ": " + why
        + (wait == null ? " and the call may wait no longer" : "; that needs a wait of " + wait
            + ", more than the call may wait");
    return new RateLimitedException(key(), wait, model.lastSignals(), message);
  }

  @Override
  public synchronized String toString() {
    return "KeyState{" + model + '}';
  }
}
