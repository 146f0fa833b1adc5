package dev.polite;

/**
 * The calendar clock, used only to turn an absolute time a server sent (an HTTP date, an epoch
 * reset) into a delay when the response carries no usable {@code Date} header of its own.
 *
 * <p>Implementations must be thread-safe.
 *
 * <pre>{@code
 * long nowMillis = WallClock.system().millis();
 * }</pre>
 */
@FunctionalInterface
public interface WallClock {
  /** Milliseconds since the epoch. */
  long millis();

  /** {@link System#currentTimeMillis()}. */
  static WallClock system() {
    return System::currentTimeMillis;
  }
}
