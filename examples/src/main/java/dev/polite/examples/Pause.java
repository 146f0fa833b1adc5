package dev.polite.examples;

import java.io.InterruptedIOException;
import java.time.Duration;

/**
 * Blocks the calling thread for a while, turning an interrupt into the
 * {@link InterruptedIOException} OkHttp expects from an interceptor (anything but an
 * {@code IOException} crashes its async callbacks), with the interrupt flag kept.
 *
 * <p>Usage: {@code Pause.sleep(Duration.ofMillis(200));}
 */
final class Pause {
  private Pause() {}

  static void sleep(Duration duration) throws InterruptedIOException {
    long nanos = duration.toNanos();
    if (nanos <= 0) {
      return;
    }
    try {
      Thread.sleep(nanos / 1_000_000, (int) (nanos % 1_000_000));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      InterruptedIOException io = new InterruptedIOException("interrupted while waiting to retry");
      io.initCause(e);
      throw io;
    }
  }
}
