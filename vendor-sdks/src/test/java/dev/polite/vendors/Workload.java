package dev.polite.vendors;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Runs a scenario's calls: {@code n} of them, {@code concurrency} at a time, each on a caller
 * thread of its own as an application would make them, and counts how they ended. The time is the
 * wall clock's: the scenarios are integration runs on loopback, against servers that keep real
 * time.
 */
public final class Workload {
  /** One call of the scenario; {@code i} counts from 0. */
  @FunctionalInterface
  public interface Call {
    void run(int i) throws Exception;
  }

  /** How the calls ended: how many returned, which exceptions the others threw, how long. */
  public record Outcome(int ok, Map<String, Integer> failures, double seconds) {
    public int failed() {
      return failures.values().stream().mapToInt(Integer::intValue).sum();
    }
  }

  private Workload() {}

  /**
   * Runs the calls, failing loudly when one has not ended within {@code limitSeconds} (a client
   * that waits an hour is the scenario's finding, not something to sit through).
   */
  public static Outcome run(int n, int concurrency, long limitSeconds, Call call) throws Exception {
    ExecutorService callers = Executors.newFixedThreadPool(concurrency);
    try {
      long start = System.nanoTime();
      List<Future<?>> calls = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        int index = i;
        calls.add(callers.submit(() -> {
          call.run(index);
          return null;
        }));
      }
      int ok = 0;
      Map<String, Integer> failures = new TreeMap<>();
      long deadline = start + TimeUnit.SECONDS.toNanos(limitSeconds);
      for (Future<?> f : calls) {
        try {
          f.get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
          ok++;
        } catch (java.util.concurrent.ExecutionException e) {
          failures.merge(e.getCause().getClass().getSimpleName(), 1, Integer::sum);
        }
      }
      return new Outcome(ok, failures, (System.nanoTime() - start) / 1e9);
    } finally {
      callers.shutdownNow();
    }
  }
}
