package dev.polite.testing;

import dev.polite.Sleeper;
import dev.polite.Ticker;
import dev.polite.WallClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

/**
 * A ticker and sleeper on fake time: a sleep returns at once, having moved the clock to the
 * sleeper's deadline (never backwards, so threads sleeping at once share one timeline; a thread
 * whose deadline the clock has already passed wakes at once). It records every sleep it was
 * asked for, as the time left when it was asked. polite-micrometer's and okhttp-compat's tests take
 * it from the sdk's test jar.
 */
public final class FakeClock implements Ticker, Sleeper, WallClock {
  /** Far from zero, so that code assuming time starts at 0 shows itself. */
  public static final long START = 1_000_000_000_000L;
  public static final long EPOCH_MILLIS = 1_767_225_600_000L; // 2026-01-01T00:00:00Z

  private final AtomicLong now = new AtomicLong(START);
  private final List<Long> sleeps = new ArrayList<>();
  private volatile Runnable onSleep = () -> {};

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
    synchronized (sleeps) {
      sleeps.add(target - now.get());
    }
    onSleep.run();
    if (Thread.interrupted()) {
      throw new InterruptedException();
    }
    if (stop.getAsBoolean()) {
      return;
    }
    now.accumulateAndGet(target, Math::max);
  }

  /** Runs {@code hook} whenever someone sleeps, before the clock moves. */
  public void onSleep(Runnable hook) {
    this.onSleep = hook;
  }

  public void advance(Duration d) {
    now.addAndGet(d.toNanos());
  }

  /** Time since the clock was made. */
  public Duration elapsed() {
    return Duration.ofNanos(now.get() - START);
  }

  /** Seconds since the clock was made. */
  public double elapsedSeconds() {
    return (now.get() - START) / 1e9;
  }

  /** Seconds since START of a ticker reading. */
  public static double seconds(long tickerNanos) {
    return (tickerNanos - START) / 1e9;
  }

  public List<Long> sleeps() {
    synchronized (sleeps) {
      return List.copyOf(sleeps);
    }
  }

  public long totalSleptNanos() {
    return sleeps().stream().mapToLong(Long::longValue).sum();
  }
}
