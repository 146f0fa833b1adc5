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
public final class Pause {
  private Pause() {}

  /** The longest a sleep for a call goes without looking whether the call was cancelled. */
  private static final long CANCEL_CHECK_NANOS = 50_000_000L;

  /**
   * Sleeps for {@code duration} on behalf of {@code call}, ending early with an
   * {@link InterruptedIOException} when the call is cancelled: {@code Call.cancel()} interrupts
   * no thread, so a peer asleep on an hour's Retry-After would otherwise outlive its cell's cut.
   * It looks every 50 ms, which bounds how late a cancel is heard.
   */
  public static void sleep(Duration duration, okhttp3.Call call) throws InterruptedIOException {
    long end = System.nanoTime() + duration.toNanos();
    for (long left = duration.toNanos(); left > 0; left = end - System.nanoTime()) {
      if (call.isCanceled()) {
        throw new InterruptedIOException("Canceled");
      }
      sleep(Duration.ofNanos(Math.min(left, CANCEL_CHECK_NANOS)));
    }
  }

  /** Sleeps for {@code duration} (not at all when it is not positive). */
  public static void sleep(Duration duration) throws InterruptedIOException {
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
