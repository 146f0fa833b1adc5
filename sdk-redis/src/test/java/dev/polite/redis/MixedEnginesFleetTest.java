package dev.polite.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.polite.demo.DemoServer;
import dev.polite.demo.HeaderStyle;
import dev.polite.jdk.PoliteHttpClient;
import dev.polite.okhttp.PoliteInterceptor;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A fleet whose instances run on different engines shares one budget all the same: an OkHttp
 * instance calling blocking and a JDK client's instance calling with {@code sendAsync}, each with
 * its own polite and one Redis between them, against the real demo server (10 a second, burst 10,
 * IETF headers) on the same key. Each instance alone would learn the server's 10 a second and
 * send it, twice what the server takes; sharing, they send it together.
 */
class MixedEnginesFleetTest {
  private static final Duration RUN = Duration.ofSeconds(3);

  @RegisterExtension final RealRedis redis = new RealRedis();
  private final List<RedisSharedState> states = new ArrayList<>();

  @AfterEach
  void close() {
    states.forEach(RedisSharedState::close);
  }

  private RedisSharedState state() {
    RedisSharedState state = redis.open(RedisSharedState.builder(redis.process().uri())
        .prefix("mixed-engines:").timeout(Duration.ofMillis(200)));
    states.add(state);
    return state;
  }

  @Test
  void anOkHttpInstanceAndAJdkInstanceSpendOneBudget() throws Exception {
    AtomicInteger okhttpOk = new AtomicInteger();
    AtomicInteger jdkOk = new AtomicInteger();
    Queue<Throwable> failures = new ConcurrentLinkedQueue<>();
    try (DemoServer server = DemoServer.builder().limit(10).window(Duration.ofSeconds(1))
        .headers(HeaderStyle.IETF).start()) {
      URI uri = server.url().resolve("/api/fleet");
      OkHttpClient okhttp = new OkHttpClient.Builder()
          .addInterceptor(PoliteInterceptor.builder().sharedState(state()).build()).build();
      HttpClient jdk = PoliteHttpClient.builder(HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1).build()).sharedState(state()).build();
      long end = System.nanoTime() + RUN.toNanos();
      ExecutorService workers = Executors.newFixedThreadPool(3);
      try {
        List<Future<?>> running = new ArrayList<>();
        for (int w = 0; w < 3; w++) { // the OkHttp instance: three callers, blocking
          running.add(workers.submit(() -> {
            Request request = new Request.Builder().url(uri.toString()).build();
            while (System.nanoTime() < end) {
              try (Response response = okhttp.newCall(request).execute()) {
                if (response.isSuccessful()) {
                  okhttpOk.incrementAndGet();
                }
              } catch (IOException e) {
                failures.add(e);
              }
            }
            return null;
          }));
        }
        // The JDK instance: three calls in flight at a time, none holding a thread while it waits.
        HttpRequest request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).build();
        List<CompletableFuture<HttpResponse<Void>>> inFlight = new ArrayList<>();
        while (System.nanoTime() < end) {
          inFlight.removeIf(CompletableFuture::isDone);
          while (inFlight.size() < 3) {
            inFlight.add(jdk.sendAsync(request, BodyHandlers.discarding()).whenComplete((r, e) -> {
              if (e != null) {
                failures.add(e);
              } else if (r.statusCode() == 200) {
                jdkOk.incrementAndGet();
              }
            }));
          }
          CompletableFuture.anyOf(inFlight.toArray(new CompletableFuture<?>[0]))
              .get(30, TimeUnit.SECONDS);
        }
        CompletableFuture.allOf(inFlight.toArray(new CompletableFuture<?>[0])).get(30, TimeUnit.SECONDS);
        for (Future<?> f : running) {
          f.get(30, TimeUnit.SECONDS);
        }
      } finally {
        workers.shutdownNow();
        okhttp.dispatcher().executorService().shutdown();
        okhttp.connectionPool().evictAll();
      }
      assertThat(failures).isEmpty();
      assertThat(okhttpOk.get()).as("the OkHttp instance made calls").isPositive();
      assertThat(jdkOk.get()).as("the JDK instance made calls").isPositive();
      assertThat(server.stats().rejected())
          .as("refused by the server: alone, each would send the server's whole rate").isLessThanOrEqualTo(3);
    }
  }
}
