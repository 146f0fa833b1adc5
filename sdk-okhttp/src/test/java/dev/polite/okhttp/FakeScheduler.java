package dev.polite.okhttp;

import static org.assertj.core.api.Assertions.fail;

import dev.polite.Scheduler;
import dev.polite.testing.FakeClock;
import java.util.PriorityQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import okhttp3.Dispatcher;
import org.jspecify.annotations.Nullable;

/**
 * A {@link Scheduler} on a {@link FakeClock}: tasks wait in a queue, and {@link #runUntil} runs
 * them, moving the clock to each one's time only when nothing else can happen first (no task is
 * due and OkHttp has no call running or queued). Time never moves while a real OkHttp thread is
 * at work, so what the calls see is exactly the schedule polite made.
 */
final class FakeScheduler implements Scheduler {
  private final FakeClock clock;
  private final PriorityQueue<Task> tasks = new PriorityQueue<>();
  private long sequence;
  private int maxPending;

  FakeScheduler(FakeClock clock) {
    this.clock = clock;
  }

  @Override
  public synchronized Scheduled runAt(long deadline, Runnable task) {
    Task t = new Task(deadline, sequence++, task);
    tasks.add(t);
    maxPending = Math.max(maxPending, pending());
    notifyAll();
    return () -> {
      synchronized (FakeScheduler.this) {
        tasks.remove(t);
      }
    };
  }

  /** Tasks waiting to run. */
  synchronized int pending() {
    return tasks.size();
  }

  /** The most tasks that were waiting at once. */
  synchronized int maxPending() {
    return maxPending;
  }

  /** Runs every task already due, without moving the clock. */
  void runDue() {
    for (Task t = pollDue(); t != null; t = pollDue()) {
      t.task.run();
    }
  }

  /**
   * Runs tasks until {@code done}: those due first, then, when OkHttp is idle, the next one after
   * moving the clock to it. Fails after ten real seconds without getting there.
   */
  void runUntil(BooleanSupplier done, Dispatcher dispatcher) throws InterruptedException {
    long giveUpAt = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!done.getAsBoolean()) {
      if (System.nanoTime() > giveUpAt) {
        fail("not done after 10 s; " + pending() + " tasks pending, " + dispatcher.runningCallsCount()
            + " calls running");
      }
      Task due = pollDue();
      if (due != null) {
        due.task.run();
        continue;
      }
      boolean okHttpIdle = dispatcher.runningCallsCount() == 0 && dispatcher.queuedCallsCount() == 0;
      synchronized (this) {
        Task next = tasks.peek();
        if (okHttpIdle && next != null) {
          clock.advance(java.time.Duration.ofNanos(Math.max(0, next.deadline - clock.read())));
          continue;
        }
        wait(2); // OkHttp's threads are at work: a bounded wait for them, not a timed assertion
      }
    }
  }

  private synchronized @Nullable Task pollDue() {
    Task next = tasks.peek();
    if (next != null && next.deadline <= clock.read()) {
      return tasks.poll();
    }
    return null;
  }

  private record Task(long deadline, long sequence, Runnable task) implements Comparable<Task> {
    @Override
    public int compareTo(Task o) {
      int byTime = Long.compare(deadline, o.deadline);
      return byTime != 0 ? byTime : Long.compare(sequence, o.sequence);
    }
  }
}
