package dev.polite.micrometer;

import dev.polite.Sleeper;
import dev.polite.Ticker;
import dev.polite.WallClock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

/**
 * A ticker, sleeper and wall clock on fake time (the sdk's test clock, trimmed): a sleep returns
 * at once, having moved the clock to the sleeper's deadline, never backwards. No test here
 * sleeps for real.
 */
final class FakeClock implements Ticker, Sleeper, WallClock {
  /** Far from zero, so that code assuming time starts at 0 shows itself. */
  static final long START = 1_000_000_000_000L;
  static final long EPOCH_MILLIS = 1_767_225_600_000L; // 2026-01-01T00:00:00Z

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
  public void sleepUntil(long target, BooleanSupplier stop) throws InterruptedException {
    if (Thread.interrupted()) {
      throw new InterruptedException();
    }
    if (stop.getAsBoolean()) {
      return;
    }
    now.accumulateAndGet(target, Math::max);
  }

  void advance(Duration d) {
    now.addAndGet(d.toNanos());
  }
}
