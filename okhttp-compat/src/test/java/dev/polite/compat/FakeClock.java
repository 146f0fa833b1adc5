package dev.polite.compat;

import dev.polite.Sleeper;
import dev.polite.Ticker;
import dev.polite.WallClock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

/**
 * polite's clock, faked: a sleep returns at once, having moved the time to its deadline (never
 * backwards). The server reads the same clock, so pacing is asserted in fake seconds, not in
 * the machine's.
 */
final class FakeClock implements Ticker, Sleeper, WallClock {
  private static final long START = 1_000_000_000_000L;
  private static final long EPOCH_MILLIS = 1_767_225_600_000L; // 2026-01-01T00:00:00Z

  private final AtomicLong now = new AtomicLong(START);

  @Override
  public long read() {
    return now.get();
  }

  @Override
  public long millis() {
    return EPOCH_MILLIS + (now.get() - START) / 1_000_000;
  }

  @Override
  public void sleepUntil(long deadline, BooleanSupplier stop) throws InterruptedException {
    if (Thread.interrupted()) {
      throw new InterruptedException();
    }
    if (stop.getAsBoolean()) {
      return;
    }
    now.accumulateAndGet(deadline, Math::max);
  }

  Duration elapsed() {
    return Duration.ofNanos(now.get() - START);
  }

  double elapsedSeconds() {
    return (now.get() - START) / 1e9;
  }
}
