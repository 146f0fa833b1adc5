package dev.polite.redis;

import dev.polite.SharedState;
import dev.polite.okhttp.PoliteInterceptor;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;

/**
 * A fleet of isolated client instances (each its own OkHttpClient and interceptor, on its own
 * shared state) sending GETs in a closed loop on real threads, counting what came back. Every
 * caller starts at once, once every instance is built, as a fleet deployed together does: built
 * and started one by one, the first instances would meet the limit before the last had begun.
 */
final class FleetRun {
  final AtomicInteger ok = new AtomicInteger();
  final AtomicInteger rejected = new AtomicInteger();
  final AtomicInteger failed = new AtomicInteger();
  final List<Throwable> failures = new ArrayList<>();

  /** Runs {@code instances x threads} callers for {@code length}, then returns. */
  static FleetRun run(URI url, int instances, int threads, Duration length,
      Supplier<SharedState> sharedState) throws InterruptedException {
    return run(List.of(url), instances, threads, length, sharedState);
  }

  /** As {@link #run(URI, int, int, Duration, Supplier)}, each instance's thread t calling {@code urls[t % n]}. */
  static FleetRun run(List<URI> urls, int instances, int threads, Duration length,
      Supplier<SharedState> sharedState) throws InterruptedException {
    FleetRun run = new FleetRun();
    CountDownLatch go = new CountDownLatch(1);
    long[] end = new long[1];
    List<Thread> callers = new ArrayList<>();
    List<OkHttpClient> clients = new ArrayList<>();
    for (int i = 0; i < instances; i++) {
      OkHttpClient client = new OkHttpClient.Builder()
          .addInterceptor(PoliteInterceptor.builder().sharedState(sharedState.get())
              .maxWait(Duration.ofSeconds(10)).build())
          .build();
      clients.add(client);
      for (int t = 0; t < threads; t++) {
        URI url = urls.get(t % urls.size());
        Thread caller = new Thread(() -> {
          try {
            go.await();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
          }
          run.loop(client, url, end[0]);
        }, "c" + i + "." + t);
        caller.start();
        callers.add(caller);
      }
    }
    end[0] = System.nanoTime() + length.toNanos(); // published to the callers by the latch
    go.countDown();
    for (Thread caller : callers) {
      caller.join(length.toMillis() + 30_000);
    }
    for (OkHttpClient client : clients) {
      client.dispatcher().executorService().shutdown();
      client.connectionPool().evictAll();
    }
    return run;
  }

  private void loop(OkHttpClient client, URI url, long end) {
    Request request = new Request.Builder().url(url.resolve("/api/fleet").toString()).build();
    while (System.nanoTime() < end) {
      try (Response response = client.newCall(request).execute()) {
        (response.code() == 429 ? rejected : ok).incrementAndGet();
      } catch (IOException | RuntimeException e) {
        failed.incrementAndGet();
        synchronized (failures) {
          failures.add(e);
        }
      }
    }
  }
}
