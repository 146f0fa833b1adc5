package dev.polite;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * Blocks the calling thread: the only way polite waits for time to pass. Paired with a
 * {@link Ticker} that reads the same clock: a sleep lasts until that ticker reaches a deadline,
 * so waits computed from one reading of the clock do not drift by the time it took to begin them.
 *
 * <p>A sleep ends early, without error, once {@code stop} answers true (the system sleeper asks
 * it at least every {@value #POLL_MILLIS} ms, so a cancelled call stops waiting promptly), and
 * throws {@link InterruptedException} when the thread is interrupted. Implementations must be
 * thread-safe. Tests pass a fake that advances a fake ticker instead of blocking.
 *
 * <pre>{@code
 * Sleeper.system().sleepUntil(System.nanoTime() + TimeUnit.SECONDS.toNanos(1), call::isCanceled);
 * }</pre>
 */
@FunctionalInterface
public interface Sleeper {
  /** How often, at most, the system sleeper checks {@code stop}. */
  long POLL_MILLIS = 5;

  /**
   * Sleeps until the paired ticker reads {@code deadline}, or until {@code stop} answers true.
   *
   * @throws InterruptedException if the thread is interrupted before or during the sleep
   */
  void sleepUntil(long deadline, BooleanSupplier stop) throws InterruptedException;

  /**
   * Pairs with {@link Ticker#system()}: parks the thread in slices of at most
   * {@value #POLL_MILLIS} ms; no busy waiting.
   */
  static Sleeper system() {
    return (deadline, stop) -> {
      long slice = TimeUnit.MILLISECONDS.toNanos(POLL_MILLIS);
      for (long left = deadline - System.nanoTime(); left > 0; left = deadline - System.nanoTime()) {
        if (Thread.interrupted()) {
          throw new InterruptedException();
        }
        if (stop.getAsBoolean()) {
          return;
        }
        LockSupport.parkNanos(Sleeper.class, Math.min(left, slice));
      }
      if (Thread.interrupted()) {
        throw new InterruptedException();
      }
    };
  }
}
