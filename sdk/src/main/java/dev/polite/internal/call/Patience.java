package dev.polite.internal.call;

import dev.polite.Sleeper;
import dev.polite.Ticker;
import dev.polite.internal.Nanos;
import java.io.InterruptedIOException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * How long one call is still willing to wait, and the only place it waits.
 *
 * <p>Two limits apply: polite's max wait, a total over every wait of the call (so polite adds at
 * most that much delay to a call, whatever it retries), and the call's own deadline from its
 * engine's timeout (OkHttp's call timeout, the JDK request's). A wait that would cross either is
 * refused up front rather than slept and then abandoned. Waits end early when the call is
 * cancelled or the thread interrupted, with an {@link InterruptedIOException}, as OkHttp itself
 * throws (each engine's adapter turns it into its own way of saying so).
 *
 * <p>Confined to the calling thread, or to one asynchronous call's lock. Open to extension only
 * so that a call's run can be its own patience (one object per call, not two, on a path every
 * call takes); nothing overrides its methods.
 */
public class Patience {
  private static final long SIGNAL_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(Sleeper.POLL_MILLIS);

  private final Ticker ticker;
  private final Sleeper sleeper;
  private final BooleanSupplier canceled;
  private final long deadline;
  private long waitLeft;
  private long waited;

  /**
   * @param deadline the call's deadline in ticker nanos, or {@link Long#MAX_VALUE} for none
   * @param maxWaitNanos the most this call may wait in all
   */
  public Patience(Ticker ticker, Sleeper sleeper, BooleanSupplier canceled, long deadline,
      long maxWaitNanos) {
    this.ticker = ticker;
    this.sleeper = sleeper;
    this.canceled = canceled;
    this.deadline = deadline;
    this.waitLeft = maxWaitNanos;
  }

  /** Whether the caller gave the call up. */
  public final boolean canceled() {
    return canceled.getAsBoolean();
  }

  /** Whether a wait of {@code nanos} starting {@code now} fits both limits. */
  public final boolean allows(long nanos, long now) {
    return nanos <= waitLeft && nanos <= deadline - now;
  }

  /** The longest wait from {@code now} that fits both limits; 0 when patience is spent. */
  public final long left(long now) {
    return Math.max(0, Math.min(waitLeft, deadline == Long.MAX_VALUE ? Long.MAX_VALUE : deadline - now));
  }

  /** Nanoseconds from {@code now} to the call's deadline; {@link Long#MAX_VALUE} for none. */
  public final long deadlineLeft(long now) {
    return deadline == Long.MAX_VALUE ? Long.MAX_VALUE : Math.max(0, deadline - now);
  }

  /** Nanoseconds this call has spent waiting so far. */
  public final long waited() {
    return waited;
  }

  /**
   * Sleeps for {@code nanos} from {@code from}, the ticker reading the wait was computed at
   * (the caller checked it with {@link #allows}).
   */
  public final void sleep(long nanos, long from) throws InterruptedIOException {
    block(() -> sleeper.sleepUntil(Nanos.add(from, nanos), canceled));
  }

  /**
   * As {@link #sleep(long, long)}, ending early too once {@code moot} answers true (what the
   * sleep waited for was voided); the caller then re-checks its condition.
   */
  public final void sleep(long nanos, long from, BooleanSupplier moot) throws InterruptedIOException {
    block(() -> sleeper.sleepUntil(Nanos.add(from, nanos), () -> canceled.getAsBoolean() || moot.getAsBoolean()));
  }

  /**
   * Parks, holding no lock, until the signal the caller registered for unparks it or a short
   * poll passes; the caller re-checks its condition. Ends the call's wait when it is cancelled,
   * its thread interrupted or its patience spent. A park, not {@code Object.wait}, so that a
   * virtual thread waiting here leaves its carrier (see {@link KeyState#acquire}).
   *
   * @return false when patience ran out, so the caller should give up
   */
  public final boolean awaitSignal() throws InterruptedIOException {
    checkNotCanceled();
    long now = ticker.read();
    if (waitLeft <= 0 || deadline - now <= 0) {
      return false;
    }
    block(() -> LockSupport.parkNanos(this, SIGNAL_POLL_NANOS)); // an interrupt ends it; block sees it
    return true;
  }

  /** Blocks, counts the time against the call's patience, and turns interrupts into IOExceptions. */
  private void block(Blocking blocking) throws InterruptedIOException {
    long start = ticker.read();
    try {
      blocking.run();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw interrupted();
    } finally {
      account(start);
    }
    checkNotCanceled();
  }

  @FunctionalInterface
  private interface Blocking {
    void run() throws InterruptedException;
  }

  /** Throws if the call was cancelled or the thread interrupted. */
  public final void checkNotCanceled() throws InterruptedIOException {
    if (canceled.getAsBoolean()) {
      throw new InterruptedIOException("Canceled");
    }
    if (Thread.currentThread().isInterrupted()) {
      throw interrupted();
    }
  }

  /**
   * Counts a wait that a scheduler, not this thread, sat out: from {@code start} to {@code now}.
   */
  public final void waited(long start, long now) {
    long spent = Math.max(0, now - start);
    waited += spent;
    waitLeft -= spent;
  }

  private void account(long start) {
    long spent = Math.max(0, ticker.read() - start);
    waited += spent;
    waitLeft -= spent;
  }

  private static InterruptedIOException interrupted() {
    return new InterruptedIOException("interrupted");
  }
}
