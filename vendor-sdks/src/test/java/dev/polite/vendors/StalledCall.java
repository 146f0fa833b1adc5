package dev.polite.vendors;

import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A call that may sleep out a reset an hour away: run on a thread of its own, and ended (its
 * thread interrupted, which ends the SDKs' sleeps) once it has shown it is still waiting after a
 * patience that no test should sit through more than once.
 */
public final class StalledCall {
  /** How long a call may wait before a test calls it "waiting for the reset" and ends it. */
  public static final Duration PATIENCE = Duration.ofSeconds(3);

  private StalledCall() {}

  /** Prints one line of a spent-budget test: the way, how its call ended, the requests sent. */
  public static void report(String way, String outcome, int sent) {
    report(44, way, outcome, sent);
  }

  /** {@link #report(String, String, int)}, the way's column {@code wayWidth} wide. */
  public static void report(int wayWidth, String way, String outcome, int sent) {
    System.out.printf("%-" + wayWidth + "s %-66s sent %d%n", way, outcome, sent);
  }

  /**
   * Whether {@code call} is still running after {@code patience}; a call that ended by then
   * rethrows what it threw, or returns false.
   */
  public static boolean stillWaitingAfter(Duration patience, Workload.Call call) throws Exception {
    ExecutorService caller = Executors.newSingleThreadExecutor();
    try {
      Future<?> running = caller.submit(() -> {
        call.run(0);
        return null;
      });
      try {
        running.get(patience.toMillis(), TimeUnit.MILLISECONDS);
        return false;
      } catch (TimeoutException e) {
        return true;
      } catch (ExecutionException e) {
        throw e.getCause() instanceof Exception cause ? cause : e;
      }
    } finally {
      caller.shutdownNow();
    }
  }
}
