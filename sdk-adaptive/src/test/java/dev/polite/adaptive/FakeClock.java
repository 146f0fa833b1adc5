package dev.polite.adaptive;

import dev.polite.Sleeper;
import dev.polite.Ticker;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

/**
 * A ticker and sleeper on fake time (after the sdk's test FakeClock): a sleep returns at once,
 * having moved the clock to its deadline, never backwards.
 */
final class FakeClock implements Ticker, Sleeper {
  static final long START = 1_000_000_000_000L;

  private final AtomicLong now = new AtomicLong(START);

  @Override
  public long read() {
    return now.get();
  }

  @Override
  public void sleepUntil(long target, BooleanSupplier stop) throws InterruptedException {
    if (Thread.interrupted()) {
      throw new InterruptedException();
    }
    if (!stop.getAsBoolean()) {
      now.accumulateAndGet(target, Math::max);
    }
  }

  void advanceNanos(long nanos) {
    now.addAndGet(nanos);
  }
}
