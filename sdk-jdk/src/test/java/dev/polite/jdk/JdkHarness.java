package dev.polite.jdk;

import dev.polite.Scheduler;
import dev.polite.testing.FakeClock;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandler;
import java.net.http.HttpResponse.BodyHandlers;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import mockwebserver3.MockWebServer;

/**
 * A MockWebServer, a fake clock, and a real JDK client made polite on that clock, with a body
 * handler that records every answer it was given: the answers polite returned, never the ones it
 * retried.
 */
final class JdkHarness implements AutoCloseable {
  final MockWebServer server = new MockWebServer();
  final FakeClock clock = new FakeClock();
  final HttpClient jdk = HttpClient.newBuilder()
      .version(HttpClient.Version.HTTP_1_1)
      .followRedirects(HttpClient.Redirect.NORMAL)
      .connectTimeout(Duration.ofSeconds(5))
      .build();
  private final ExecutorService jdkThreads = Executors.newFixedThreadPool(2, r -> {
    Thread t = new Thread(r, "jdk-client");
    t.setDaemon(true);
    return t;
  });
  /** The statuses the caller's body handler was given, in order. */
  final List<Integer> handled = new CopyOnWriteArrayList<>();

  JdkHarness() throws IOException {
    server.start();
  }

  URI uri(String path) {
    return server.url(path).uri();
  }

  HttpRequest get(String path) {
    return HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(30)).build();
  }

  /** A builder over the JDK client, wired to the fake clock, with seeded jitter. */
  PoliteHttpClient.Builder polite() {
    return PoliteHttpClient.builder(jdk).clock(clock, clock).wallClock(clock)
        .random(new Random(42));
  }

  /**
   * A builder over a JDK client whose own work (delivering answers, running dependent stages) runs
   * on two threads of the harness's, closed with it, wired to the fake clock and to {@code
   * scheduler} for the waits of {@code sendAsync}.
   */
  PoliteHttpClient.Builder politeAsync(Scheduler scheduler) {
    HttpClient onThreads = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).executor(jdkThreads).build();
    return PoliteHttpClient.builder(onThreads).clock(clock, clock).wallClock(clock).random(new Random(42))
        .scheduler(scheduler);
  }

  /** The caller's handler: the body as a string, each answer it is given recorded. */
  BodyHandler<String> strings() {
    return info -> {
      handled.add(info.statusCode());
      return BodyHandlers.ofString().apply(info);
    };
  }

  HttpResponse<String> send(HttpClient client, HttpRequest request)
      throws IOException, InterruptedException {
    return client.send(request, strings());
  }

  @Override
  public void close() throws IOException {
    jdkThreads.shutdownNow();
    server.close();
  }
}
