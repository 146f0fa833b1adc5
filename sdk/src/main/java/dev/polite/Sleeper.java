package dev.polite;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * Blocks the calling thread: the only way polite waits for time to pass. Paired with a
 * {@link Ticker} that reads the same clock.
 *
 * <p>A sleep ends early, without error, once {@code stop} answers true (the system sleeper asks
 * it at least every {@value #POLL_MILLIS} ms, so a cancelled call stops waiting promptly), and
 * throws {@link InterruptedException} when the thread is interrupted. Implementations must be
 * thread-safe. Tests pass a fake that advances a fake ticker instead of blocking.
 *
 * <pre>{@code
 * Sleeper.system().sleep(TimeUnit.SECONDS.toNanos(1), call::isCanceled);
 * }</pre>
 */
@FunctionalInterface
public interface Sleeper {
  /** How often, at most, the system sleeper checks {@code stop}. */
  long POLL_MILLIS = 5;

  /**
   * Sleeps for {@code nanos}, or until {@code stop} answers true.
   *
   * @throws InterruptedException if the thread is interrupted before or during the sleep
   */
  void sleep(long nanos, BooleanSupplier stop) throws InterruptedException;

  /** Parks the thread in slices of at most {@value #POLL_MILLIS} ms; no busy waiting. */
  static Sleeper system() {
    return (nanos, stop) -> {
      long slice = TimeUnit.MILLISECONDS.toNanos(POLL_MILLIS);
      long end = System.nanoTime() + nanos;
      for (long left = nanos; left > 0; left = end - System.nanoTime()) {
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
