package dev.polite.jdk;

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
    server.close();
  }
}
