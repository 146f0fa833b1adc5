package dev.polite;

import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Runs a task once a {@link Ticker} reaches a time, without a thread waiting for it: how an
 * asynchronous call ({@link Polite#callAsync}: OkHttp's {@code PoliteCallFactory}, the JDK
 * client's {@code sendAsync}) waits for its pace, a pause or a retry. Paired with the ticker
 * polite reads, as a {@link Sleeper} is; tests pass a fake that runs tasks as they move a fake
 * clock.
 *
 * <p>Tasks must be short (they take one step under a key's lock and hand the call to its engine)
 * and must not throw. Implementations must be thread-safe.
 *
 * <pre>{@code
 * PoliteCallFactory.builder(client).scheduler(Scheduler.system()).build()
 * }</pre>
 */
@FunctionalInterface
public interface Scheduler {
  /**
   * Runs {@code task} once, when the paired ticker reads {@code deadline} or later (at once when
   * it already does), unless cancelled first.
   *
   * @return a handle that cancels the task if it has not begun
   */
  Scheduled runAt(long deadline, Runnable task);

  /** A task that has been scheduled. */
  @FunctionalInterface
  interface Scheduled {
    /** Keeps the task from running, if it has not begun; does nothing after. */
    void cancel();
  }

  /**
   * Pairs with {@link Ticker#system()}: one daemon thread, {@code polite-scheduler}, shared by
   * every factory that uses it, with a cancelled task removed from its queue at once. One thread
   * is enough: a task takes microseconds and never blocks.
   */
  static Scheduler system() {
    return SystemScheduler.INSTANCE;
  }
}

/** The shared scheduler on the system's monotonic clock. */
final class SystemScheduler implements Scheduler {
  static final SystemScheduler INSTANCE = new SystemScheduler();

  private final ScheduledThreadPoolExecutor executor;

  private SystemScheduler() {
    executor = new ScheduledThreadPoolExecutor(1, task -> {
      Thread thread = new Thread(task, "polite-scheduler");
      thread.setDaemon(true);
      return thread;
    });
    executor.setRemoveOnCancelPolicy(true);
  }

  @Override
  public Scheduled runAt(long deadline, Runnable task) {
    ScheduledFuture<?> future =
        executor.schedule(task, deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
    return () -> future.cancel(false);
  }

  @Override
  public String toString() {
    return "Scheduler.system()";
  }
}
