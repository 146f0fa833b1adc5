package dev.polite.examples.fleet;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import okhttp3.Request;
import org.jspecify.annotations.Nullable;

/**
 * The P instances of a row as isolated {@link FleetInstance}s in this one JVM (each its own
 * OkHttpClient, PoliteInterceptor and Redis connection): the fast mode, for tests. One JVM stands
 * in for P processes, so the JIT, the GC and the cores are shared.
 *
 * <p>Usage: {@code try (LaunchedFleet fleet = new InProcessFleet(4, 4, redisUri, Duration.ofMillis(20), length, request)) { ... }}
 */
final class InProcessFleet implements LaunchedFleet {
  private final List<FleetInstance> instances = new ArrayList<>();
  private final InstanceLoad load;
  private final Duration within;
  private @Nullable CompletableFuture<InstanceReport> report;

  /** @param redisUri the fleet's Redis, or null for instances alone */
  InProcessFleet(int instances, int threads, @Nullable String redisUri, Duration redisTimeout, Duration length,
      Request request) {
    try {
      for (int i = 0; i < instances; i++) {
        this.instances.add(redisUri != null ? FleetInstance.shared(redisUri, threads, redisTimeout) : FleetInstance.alone(threads));
      }
    } catch (RuntimeException e) {
      close();
      throw e;
    }
    this.load = new InstanceLoad(this.instances, threads, length, request);
    this.within = ProcessFleet.reportWithin(length);
  }

  @Override
  public void go() {
    CompletableFuture<InstanceReport> future = new CompletableFuture<>();
    Thread runner = new Thread(() -> {
      try {
        future.complete(load.run());
      } catch (Throwable e) { // an Error too: await() must hear of it rather than wait on
        future.completeExceptionally(e);
      }
    }, "fleet-in-process");
    runner.setDaemon(true);
    runner.start();
    report = future;
  }

  @Override
  public InstanceReport await() throws IOException, InterruptedException {
    if (report == null) {
      throw new IllegalStateException("await() before go()");
    }
    try {
      return report.get(within.toNanos(), TimeUnit.NANOSECONDS);
    } catch (ExecutionException e) {
      throw new IOException("the in-process fleet broke off", e.getCause());
    } catch (TimeoutException e) {
      throw new IOException("the in-process fleet did not end within " + within.toSeconds() + " s of go");
    }
  }

  @Override
  public void close() {
    for (FleetInstance instance : instances) {
      instance.close();
    }
  }
}
