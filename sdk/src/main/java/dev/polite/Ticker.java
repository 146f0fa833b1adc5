package dev.polite;

/**
 * A monotonic nanosecond clock: the only way polite reads elapsed time. Values are meaningful
 * only relative to each other, like {@link System#nanoTime()}.
 *
 * <p>Implementations must be thread-safe. Tests pass a fake that they advance by hand.
 *
 * <pre>{@code
 * long start = Ticker.system().read();
 * }</pre>
 */
@FunctionalInterface
public interface Ticker {
  /** Reads the current time in nanoseconds. */
  long read();

  /** The JVM's monotonic clock, {@link System#nanoTime()}. */
  static Ticker system() {
    return System::nanoTime;
  }
}
