package dev.polite.internal.call;

import dev.polite.CallContext;
import dev.polite.GiveUpReason;
import dev.polite.KeySnapshot;
import dev.polite.PoliteConfig;
import dev.polite.PoliteListener;
import dev.polite.RateLimitSignals;
import dev.polite.RateLimitedException;
import dev.polite.SharedKey;
import dev.polite.SharedState;
import dev.polite.internal.Nanos;
import dev.polite.internal.budgets.KeyBudgets;
import dev.polite.internal.model.KeyModel;
import dev.polite.internal.model.Permit;
import dev.polite.internal.retry.RetryBudget;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.jspecify.annotations.Nullable;

/**
 * The concurrent shell around one key's {@link KeyModel}: one lock, and the waiting. The model
 * decides (how long a pause lasts, whether the gate is open, what a call's tokens cost); this
 * class moves an attempt towards its permit one {@linkplain #step step} at a time and wakes the
 * attempts waiting at the gate when an answer may have opened it.
 *
 * <h2>Steps, so that waiting need not hold a thread</h2>
 * A step never waits: it grants the permit, or says how long until the next step is worth
 * taking, or that only a signal (an answer, a failure, a freed place) can help. A blocking caller
 * ({@link #acquire}) sleeps or waits on the monitor between steps; a scheduler
 * ({@code AsyncRun}) runs the next step as a task at that time, or when signalled, and
 * holds no thread meanwhile. Both take the same steps, so they pace, pause and gate alike.
 *
 * <h2>Why one lock</h2>
 * Pace, pause, gate and counts change together when an answer arrives; one monitor per key keeps
 * them consistent. Sleeps and waits happen outside it: a blocking caller at the closed gate parks
 * and is unparked by the next signal, as a scheduled attempt is handed on (see {@link #acquire}).
 *
 * <p>Thread-safe.
 */
public final class KeyState {
  /** What {@link #step} answers when only a signal can help: the gate is closed. */
  public static final long AWAIT_SIGNAL = -1;
  /**
   * What {@link #step} answers when the key was {@linkplain #retireIfIdle forgotten}: the call
   * holds nothing here and looks its key up again.
   */
  public static final long RETIRED = -2;

  private final PoliteConfig config;
  private final KeyModel model;
  private final SharedKey shared;
  /** Scheduled attempts at the closed gate or asleep on a reservation. Guarded by this. */
  private final Waiters waiters = new Waiters();
  /** Threads in {@link #acquire}: a key they wait on is not forgotten. Guarded by this. */
  private int blockingWaiters;
  /** Forgotten by its interceptor: steps answer {@link #RETIRED}. Written under this. */
  private volatile boolean retired;
  private final boolean heard;
  /** Whether the key has no fleet to ask: its own pace is the whole decision. */
  private final boolean alone;
  private final long maxWaitNanos;
  private volatile long lastUsed;
  private final KeyBudgets budgets;
  /** The key's retry budget (thread-safe on its own). */
  private final RetryBudget retryBudget;
  /** What enforcing would be doing to the key's calls, in observation mode. Guarded by this. */
  private final WouldHold wouldHold;

  KeyState(String key, PoliteConfig config, long now) {
    this.config = config;
    this.shared = config.sharedState().join(key, config.ticker(), this::sharedNews);
    this.model = new KeyModel(key, config, shared, now);
    this.heard = config.listener() != PoliteListener.none();
    this.alone = config.sharedState() == SharedState.none();
    this.maxWaitNanos = Nanos.of(config.maxWait());
    this.lastUsed = now;
    this.budgets = new KeyBudgets(key);
    this.retryBudget = new RetryBudget(config.retryBudgetTokens(), config.retryBudgetRatio());
    this.wouldHold = new WouldHold(key);
  }

  /** The key, as the key function made it. */
  public String key() {
    return model.key();
  }

  /** The key's retry budget. */
  public RetryBudget retryBudget() {
    return retryBudget;
  }

  long lastUsed() {
    return lastUsed;
  }

  /**
   * Retires the key if nothing depends on it: no call in flight, none waiting (blocking, at the
   * gate or asleep on a reservation) and, unless {@code evenIfPaused}, no pause. A call that held
   * it and steps again is told {@link #RETIRED} and looks its key up anew, so that every call of
   * a key shares one state. A paused key is kept because a fresh state would forget the pause and
   * send at once what the server just refused.
   *
   * @return whether the key is now retired, to be dropped by its holder
   */
  synchronized boolean retireIfIdle(boolean evenIfPaused) {
    boolean idle = model.inFlight() == 0 && blockingWaiters == 0 && waiters.none();
    if (idle && (evenIfPaused || !isPaused())) {
      retired = true;
    }
    return retired;
  }

  /** Whether the key was forgotten: its calls look it up again. */
  public boolean isRetired() {
    return retired;
  }

  /** How many scheduled attempts wait at the gate for a signal. */
  public synchronized int waitingForSignal() {
    return waiters.atGate();
  }

  /** The key is forgotten: what the fleet leased it goes back. */
  void leave() {
    shared.leave();
  }

  /**
   * Waits until the attempt may be sent: past any pause, through the gate, and with its tokens
   * paid. On return the call counts as in flight and must end in {@link #onAnswer} or
   * {@link #onFailure}.
   *
   * @return the attempt's permit, to hand back with its answer; null, holding nothing, when the
   *     attempt {@linkplain Acquisition#movedWhen moved} to another budget while it waited
   * @throws RateLimitedException when the wait would exceed the call's patience
   * @throws java.io.InterruptedIOException when the call is cancelled or the thread interrupted
   */
  public @Nullable Permit acquire(Acquisition attempt, Patience patience) throws IOException {
    BooleanSupplier moved = attempt.moved != null ? attempt.moved : () -> false;
    // The caller waits for a signal as a scheduled attempt does: the signal (or the voiding of its
    // reservation) unparks it, and it parks outside the lock. Not Object.wait on this monitor: a
    // virtual thread in Object.wait holds its carrier on JDK 21 to 23 (JEP 491 came in 24), and
    // on JDK 25 still, now and then, once many threads contend for the monitor. With as many gate
    // waiters pinned as there are cores, the answer that would open the gate never gets a carrier
    // to be read on (the run that showed it: virtual-threads/README.md).
    Thread caller = Thread.currentThread();
    Runnable wake = () -> LockSupport.unpark(caller);
    synchronized (this) {
      blockingWaiters++;
    }
    try {
      while (true) {
        if (moved.getAsBoolean()) {
          return null; // outside the lock: the check reads the key's own state; abandoned below
        }
        long sleep;
        long now;
        KeyModel.Reservation held;
        synchronized (this) {
          now = config.ticker().read();
          sleep = step(attempt, patience, now, wake);
          Permit permit = attempt.permit;
          if (permit != null) {
            return permit;
          }
          if (sleep == RETIRED) {
            return null;
          }
          held = attempt.reservation;
        }
        if (sleep == AWAIT_SIGNAL) {
          if (!patience.awaitSignal()) {
            synchronized (this) {
              throw tooLong(attempt.call, null, "no answer yet from a call already in flight");
            }
          }
          continue;
        }
        if (held == null) {
          patience.sleep(sleep, now, moved);
        } else {
          // A pause, a cut or a settled count voids the reservation: wake then, not when its tokens
          // would have come; at once if an answer voided it as the lock was let go (its wake-up
          // came before this sleep, so the sleep must not wait for another).
          long reservedIn = held.epoch();
          patience.sleep(sleep, now, () -> waiters.epoch() != reservedIn || moved.getAsBoolean());
        }
      }
    } finally {
      synchronized (this) {
        blockingWaiters--;
        abandon(attempt); // nothing to do once granted
      }
    }
  }

  /**
   * The permit at once, when nothing holds the call back: the key alone (no fleet), not paused,
   * its gate open, and its pace holding the call's tokens now. Else null, having taken nothing:
   * the caller then waits for its permit ({@link #acquire}, {@link #step}). The same decision as
   * their first step, with no {@link Acquisition} or reservation made for a call that never
   * waits (most calls, where a limit is far).
   */
  public synchronized @Nullable Permit acquireNow(CallContext call, long now) {
    if (retired || !alone) {
      return null;
    }
    lastUsed = now;
    if (model.pauseLeft(now) > 0 || model.gateClosed()) {
      return null;
    }
    Permit permit = model.grantIfDue(call.cost(), now);
    if (permit != null && heard) {
      model.notify(l -> l.sending(call, Duration.ZERO));
    }
    return permit;
  }

  /**
   * Observation mode: lets a call's attempt go now, whatever the key holds, and tells the
   * listener what enforcing would have done: held it for the key's pause and pace
   * ({@code wouldWait}), or refused it ({@code wouldGiveUp}); its verdict is logged when it
   * changes ({@link WouldHold}). On return the call counts as in flight, as after
   * {@link #acquire}, and must end in {@link #onAnswer} or {@link #onFailure}.
   *
   * @return the attempt's permit; null, holding nothing, when the key was forgotten as the call
   *     came (look its key up again)
   */
  public synchronized @Nullable Permit observe(CallContext call, Patience patience) {
    long now = config.ticker().read();
    lastUsed = now;
    if (retired) {
      return null;
    }
    long held = model.pauseHeld(now);
    long wait = model.waitEstimate(call.cost(), now);
    boolean refused = cannotOutwait(model.pauseLeft(now), patience, now) || !patience.allows(wait, now);
    // Early: enforcing would have held it (its pause, its pace, or its gate) or refused it.
    boolean early = refused || wait > 0 || model.gateClosed();
    Permit permit = model.sendAtOnce(call.cost(), !refused, early, now);
    String why = held > 0 ? "the key's pause" : "the key's pace";
    long needed = refused ? Math.max(wait, held) : wait;
    wouldHold.saw(refused ? WouldHold.Verdict.REFUSE
        : wait > 0 ? WouldHold.Verdict.HOLD : WouldHold.Verdict.AT_ONCE, needed, why, now);
    if (heard) {
      Duration would = Duration.ofNanos(needed);
      if (refused) {
        model.notify(l -> l.wouldGiveUp(call, GiveUpReason.WAIT_TOO_LONG, would));
      } else {
        model.notify(l -> l.wouldWait(call, would));
      }
      model.notify(l -> l.sending(call, Duration.ZERO));
    }
    return permit;
  }

  /**
   * Moves the attempt one step towards its permit, without waiting. When granted, the attempt
   * holds its {@link Acquisition#permit()} and counts as in flight.
   *
   * @param onSignal run (under this key's lock: it must only hand work on or unpark) at the next
   *     signal, when the answer is {@link #AWAIT_SIGNAL}, and when a reservation the attempt
   *     sleeps on is voided; null for a caller that polls instead
   * @return 0 when granted; else the nanoseconds from {@code now} until the next step is due,
   *     {@link #AWAIT_SIGNAL}, or {@link #RETIRED}
   * @throws RateLimitedException when the wait needed exceeds the call's patience; the attempt
   *     then holds nothing
   */
  public synchronized long step(Acquisition attempt, Patience patience, long now,
      @Nullable Runnable onSignal) throws RateLimitedException {
    lastUsed = now;
    if (retired) {
      release(attempt, now);
      return RETIRED;
    }
    while (true) {
      KeyModel.Reservation reservation = attempt.reservation;
      long fleetPause = shared.pauseLeft(now);
      if (fleetPause > 0) {
        model.pauseForFleet(fleetPause, shared.pauseForRefusal(), now);
        wakeVoided();
      } else if (model.fleetPauseEnded(now)) {
        signal(); // a probe elsewhere ended the fleet's pause: every call held for it may go
      }
      if (reservation != null && model.isStale(reservation)) {
        // Reserved before a pause began or a refusal cut the pace: queue again when the key lets
        // the call, or every call that had paid would go at once when the pause ends.
        attempt.reservation = null;
        attempt.due = Long.MIN_VALUE;
        waiters.forgetAsleep(attempt);
        signal();
        continue;
      }
      long pause = model.pauseLeft(now);
      long sleep;
      if (reservation == null && cannotOutwait(pause, patience, now)) {
        // Paused for longer than any call may wait: the probe alone re-verifies it, and every
        // other call is told at once, with the server's delay, instead of waiting for nothing.
        release(attempt, now);
        if (model.refusesEverything()) {
          throw refused(attempt.call, "the key refuses every call (a run of refusals, none admitted); one call "
              + "re-verifies it in " + Duration.ofNanos(pause), Duration.ofNanos(pause));
        }
        throw tooLong(attempt.call, Duration.ofNanos(model.pauseHeld(now)), "the key is paused");
      } else if (pause > 0) {
        sleep = pause;
      } else if (reservation != null) {
        // This instance's pace let the call go; the fleet's tokens must too, unless the call
        // re-verifies the fleet's long pause: then the fleet lets one instance's probe go at once.
        sleep = fleetPause > 0 && model.verifyingPause()
            ? shared.probe(attempt.cost, maxWaitNanos, now)
            : shared.take(attempt.cost, model.sendRate(now), model.onTheWire(), now);
        if (sleep == 0) {
          grant(attempt, attempt.due == Long.MIN_VALUE ? now : Math.min(now, attempt.due), patience);
          return 0;
        }
        if (sleep == SharedKey.AWAIT) {
          return awaitSignal(attempt, patience, now, onSignal, "no answer yet from the shared state");
        }
        if (sleep == SharedKey.NEVER) {
          release(attempt, now);
          throw refused(attempt.call, "the fleet can never lend a cost of " + attempt.cost
              + ", more than its budget holds at once");
        }
      } else if (model.gateClosed()) {
        return awaitSignal(attempt, patience, now, onSignal, "no answer yet from a call already in flight");
      } else {
        reservation = model.reserve(attempt.cost, now);
        attempt.reservation = reservation;
        sleep = reservation.waitNanos();
        if (sleep == 0) {
          continue; // due now: the fleet's tokens next
        }
      }
      if (!patience.allows(sleep, now)) {
        boolean settling = reservation != null && pause == 0 && model.countMaySettle(reservation, now);
        release(attempt, now);
        if (settling) {
          // Short of no more tokens than calls on the wire: their answers may yet show the server
          // has them (a report they overtook undercounted), so wait for them first.
          return awaitSignal(attempt, patience, now, onSignal, "the key's pace");
        }
        throw tooLong(attempt.call, Duration.ofNanos(sleep),
            pause > 0 || shared.pauseLeft(now) > 0 ? "the key is paused" : "the key's pace");
      }
      if (reservation != null) {
        attempt.due = Nanos.add(now, sleep);
        if (onSignal != null) {
          waiters.asleep(attempt, onSignal);
        }
      }
      return sleep;
    }
  }

  /**
   * Whether the key is paused for longer than this call, holding no reservation, may wait and the
   * call is not its probe: the probe's time has not come ({@code pause}, the wait until it, is shorter than the pause),
   * or the probe is out and the gate is shut behind it.
   */
  private boolean cannotOutwait(long pause, Patience patience, long now) {
    long held = model.pauseHeld(now);
    boolean waitsForTheProbe = (pause > 0 && held > pause) || (model.verifyingPause() && model.gateClosed());
    return waitsForTheProbe && !patience.allows(held, now);
  }

  private long awaitSignal(Acquisition attempt, Patience patience, long now,
      @Nullable Runnable onSignal, String why) throws RateLimitedException {
    if (!patience.allows(1, now)) {
      release(attempt, now);
      throw tooLong(attempt.call, null, why);
    }
    if (onSignal != null) {
      waiters.atGate(attempt, onSignal);
    }
    return AWAIT_SIGNAL;
  }

  /** The shared state has news (an answer, or its time-out): the waiting may go on. */
  private void sharedNews() {
    synchronized (this) {
      signal();
    }
  }

  /**
   * Ends an attempt that will not be sent (cancelled, or out of patience): never hold tokens or a
   * place in flight for it. Does nothing once the attempt was granted, or holds nothing.
   */
  public synchronized void abandon(Acquisition attempt) {
    if (attempt.permit == null) {
      release(attempt, config.ticker().read());
    }
  }

  private void release(Acquisition attempt, long now) {
    waiters.forget(attempt);
    KeyModel.Reservation reservation = attempt.reservation;
    if (reservation != null) {
      model.cancel(reservation, attempt.cost, now);
      attempt.reservation = null;
      signal();
    }
  }

  private void grant(Acquisition attempt, long at, Patience patience) {
    waiters.forget(attempt);
    attempt.permit = model.grant(at, attempt.reservation);
    attempt.reservation = null;
    if (heard) { // every attempt passes here: no event to build when nobody listens
      Duration waited = Duration.ofNanos(Math.max(0, patience.waited() - attempt.waitedBefore));
      model.notify(l -> l.sending(attempt.call, waited));
    }
  }

  /**
   * Learns from an answer to the attempt {@code permit} let go; see {@link KeyModel#onAnswer}.
   *
   * @return the time it was learned at, on the key's ticker, so the caller need not read it again
   */
  public long onAnswer(int status, RateLimitSignals signals, Permit permit, CallContext call) {
    return learn(status, signals, permit, false, call);
  }

  /**
   * Learns from an answer that counts against this budget of the key, to an attempt that
   * {@code sender}, another of its budgets, let go with {@code permit} (its route had not yet
   * shown which budget it spends). The sender learns nothing from it, and gets its tokens back
   * when {@code refund} (false for a cost the application settles later: that settles with the
   * sender, where it was charged).
   *
   * @return the time it was learned at, as {@link #onAnswer}'s
   */
  public long onAnswerSentThrough(KeyState sender, int status, RateLimitSignals signals,
      Permit permit, CallContext call, boolean refund) {
    sender.handedOver(call.cost(), refund);
    return learn(status, signals, permit, true, call);
  }

  /** {@code adopt}: the permit is another budget's, and the call goes on this one's wire first. */
  private long learn(int status, RateLimitSignals signals, Permit permit, boolean adopt,
      CallContext call) {
    long now;
    synchronized (this) { // read under the lock, so that the model sees time only move forward
      now = config.ticker().read();
      model.onAnswer(status, signals, adopt ? model.adopt(permit.sentAt()) : permit, now);
      wakeVoided();
      signal();
    }
    if (signals.isRejection()) {
      model.notify(l -> l.rateLimited(call, signals));
    }
    return now;
  }

  /**
   * The body of a refusal this key learnt at {@code learnedAt}, from its headers, named a delay;
   * see {@link KeyModel#onBodyHint}.
   */
  public synchronized void onBodyHint(int status, RateLimitSignals withBody, long learnedAt) {
    model.onBodyHint(status, withBody, learnedAt, config.ticker().read());
    wakeVoided();
    signal();
  }

  /**
   * A permit this key granted goes unused: while its call waited, an answer showed that its route
   * spends another budget of the key, where it queues instead. Its cost comes back.
   */
  public void unused(double cost) {
    handedOver(cost, true);
  }

  private synchronized void handedOver(double cost, boolean refund) {
    model.handedOver(cost, refund, config.ticker().read());
    signal();
  }

  /** Whether the key is paused now, for a Retry-After, a spent quota or the fleet's word. */
  public synchronized boolean isPaused() {
    long now = config.ticker().read();
    return model.pauseHeld(now) > 0 || shared.pauseLeft(now) > 0;
  }

  /** Which of the key's budgets each of its routes spends (used on the key's own state). */
  public KeyBudgets budgets() {
    return budgets;
  }

  /** An attempt let go by {@link #acquire} or {@link #step} ended without an answer. */
  public synchronized void onFailure() {
    model.onFailure();
    signal();
  }

  /**
   * A call's cost was settled: {@code unused} units (negative when it cost more than it was
   * charged) go back to the key's bucket now, for the calls that reserve after this.
   */
  public synchronized void settle(double unused) {
    model.settle(unused, config.ticker().read());
    signal();
  }

  /** The reservations were voided if the model's epoch moved: wakes the attempts asleep on them. */
  private void wakeVoided() {
    waiters.voided(model.epoch());
  }

  /** Wakes every attempt waiting at the gate: what held it closed may have changed. */
  private void signal() {
    waiters.signal();
  }

  /**
   * The wait a call of {@code cost} would face now: the pause and the pace, ignoring the gate.
   * Used to decide whether a retry can fit before the failed response is given up.
   */
  public synchronized long waitEstimate(double cost, long now) {
    return model.waitEstimate(cost, now);
  }

  /** What the key knows now. */
  public synchronized KeySnapshot snapshot() {
    return model.snapshot(config.ticker().read());
  }

  private RateLimitedException tooLong(CallContext call, @Nullable Duration wait, String why) {
    return refused(call, why + (wait == null ? " and the call may wait no longer"
        : "; that needs a wait of " + wait + ", more than the call may wait"), wait);
  }

  private RateLimitedException refused(CallContext call, String why) {
    return refused(call, why, null);
  }

  private RateLimitedException refused(CallContext call, String why, @Nullable Duration wait) {
    model.notify(l -> l.gaveUp(call, GiveUpReason.WAIT_TOO_LONG, wait == null ? Duration.ZERO : wait));
    return new RateLimitedException(key(), wait, model.lastSignals(),
        "polite: not sending to " + key() + ": " + why);
  }

  /** Where {@code attempt} stands at this key, for diagnostics. */
  public synchronized String describe(Acquisition attempt) {
    long now = config.ticker().read();
    return "{reservation=" + (attempt.reservation != null)
        + (attempt.due == Long.MIN_VALUE ? "" : " due in " + (attempt.due - now) / 1_000_000 + " ms")
        + " " + waiters.describe(attempt)
        + " permit=" + (attempt.permit != null) + "}";
  }

  @Override
  public synchronized String toString() {
    return "KeyState{" + model + '}';
  }
}
