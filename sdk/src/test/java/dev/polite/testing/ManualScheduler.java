package dev.polite.testing;

import dev.polite.Scheduler;
import java.time.Duration;
import java.util.PriorityQueue;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * A {@link Scheduler} on a {@link FakeClock} that runs nothing by itself: tasks wait in a queue
 * until the test runs them ({@link #runNext}), moving the clock to each one's time. What the
 * calls wait for is then exactly the schedule polite made, and while nothing runs, a call that
 * waits holds no thread at all.
 */
public final class ManualScheduler implements Scheduler {
  private final FakeClock clock;
  private final PriorityQueue<Task> tasks = new PriorityQueue<>();
  private long sequence;
  private CompletableFuture<Void> added = new CompletableFuture<>();

  public ManualScheduler(FakeClock clock) {
    this.clock = clock;
  }

  @Override
  public Scheduled runAt(long deadline, Runnable task) {
    Task t = new Task(deadline, sequence++, task);
    CompletableFuture<Void> told;
    synchronized (this) {
      tasks.add(t);
      told = added;
      added = new CompletableFuture<>();
    }
    told.complete(null);
    return () -> {
      synchronized (ManualScheduler.this) {
        tasks.remove(t);
      }
    };
  }

  /** Tasks waiting to run. */
  public synchronized int pending() {
    return tasks.size();
  }

  /**
   * Runs the earliest task, first moving the clock to its time if it is not due yet; false when
   * none waits.
   */
  public boolean runNext() {
    Task next = poll();
    if (next == null) {
      return false;
    }
    long ahead = next.deadline - clock.read();
    if (ahead > 0) {
      clock.advance(Duration.ofNanos(ahead));
    }
    next.task.run();
    return true;
  }

  /** Completes when the next task is scheduled: ask before {@link #runDue}, so that none is missed. */
  public synchronized CompletableFuture<Void> nextAdded() {
    return added;
  }

  /** Runs the earliest task if it is due now, leaving the clock where it is; false otherwise. */
  public boolean runDue() {
    Task next;
    synchronized (this) {
      next = tasks.peek();
      if (next == null || next.deadline > clock.read()) {
        return false;
      }
      tasks.poll();
    }
    next.task.run();
    return true;
  }

  /**
   * Runs tasks as {@code call} needs them, until it completes: each task when due, and while none
   * waits, waits (on real time, bounded at 10 s a step: not an assertion of time) for the engine's
   * threads to schedule the next or to complete the call. Its result, or what it failed with.
   */
  public <T> T runUntilDone(CompletableFuture<T> call) throws Exception {
    while (!call.isDone()) {
      CompletableFuture<Void> added = nextAdded();
      if (runNext()) {
        continue;
      }
      try {
        CompletableFuture.anyOf(call, added).get(10, TimeUnit.SECONDS);
      } catch (ExecutionException | CancellationException ended) {
        // the call is done: the loop ends
      }
    }
    return call.get();
  }

  /**
   * Waits until a task is scheduled (on real time, bounded at 10 s: not an assertion of time): a
   * call of polite's is then waiting, holding no thread.
   */
  public void awaitTask() throws Exception {
    while (true) {
      CompletableFuture<Void> added = nextAdded();
      if (pending() > 0) {
        return;
      }
      added.get(10, TimeUnit.SECONDS);
    }
  }

  private synchronized @Nullable Task poll() {
    return tasks.poll();
  }

  private record Task(long deadline, long sequence, Runnable task) implements Comparable<Task> {
    @Override
    public int compareTo(Task o) {
      int byTime = Long.compare(deadline, o.deadline);
      return byTime != 0 ? byTime : Long.compare(sequence, o.sequence);
    }
  }
}
