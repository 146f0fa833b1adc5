package dev.polite.micrometer;

import dev.polite.okhttp.PoliteInterceptor;
import dev.polite.testing.FakeClock;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import okhttp3.HttpUrl;
import okhttp3.OkHttpClient;
import okhttp3.Protocol;
import okhttp3.Request;
import okhttp3.Response;

/**
 * The real thing on a fake clock: a MockWebServer on loopback, and OkHttp clients whose
 * PoliteInterceptor sleeps on the {@link FakeClock}.
 */
final class Polite implements AutoCloseable {
  final MockWebServer server = new MockWebServer();
  final FakeClock clock = new FakeClock();

  Polite() throws IOException {
    // HTTP/1.1 on loopback costs ~40 ms a request (Nagle meets delayed ACK); h2c does not.
    server.setProtocols(List.of(Protocol.H2_PRIOR_KNOWLEDGE));
    server.start();
  }

  /** An interceptor builder on the fake clock, with seeded jitter. */
  PoliteInterceptor.Builder builder() {
    return PoliteInterceptor.builder().clock(clock, clock).wallClock(clock).random(new Random(42));
  }

  OkHttpClient client(PoliteInterceptor.Builder polite) {
    return new OkHttpClient.Builder()
        .protocols(List.of(Protocol.H2_PRIOR_KNOWLEDGE))
        .readTimeout(Duration.ofSeconds(5)) // a test that asks for one answer too many fails fast
        .addInterceptor(polite.build())
        .build();
  }

  /** The key polite's default key function gives the server: scheme, host and port. */
  String key() {
    HttpUrl url = server.url("/");
    return url.scheme() + "://" + url.host() + ":" + url.port();
  }

  Request get(String path) {
    return new Request.Builder().url(server.url(path)).build();
  }

  /** Calls {@code path}, closes the answer, and says its status. */
  int call(OkHttpClient client, Request request) throws IOException {
    try (Response r = client.newCall(request).execute()) {
      return r.code();
    }
  }

  int call(OkHttpClient client, String path) throws IOException {
    return call(client, get(path));
  }

  /** Answers {@code code} with the headers given as names and values in turn. */
  void enqueue(int code, String... headers) {
    MockResponse.Builder b = new MockResponse.Builder().code(code);
    for (int i = 0; i < headers.length; i += 2) {
      b.addHeader(headers[i], headers[i + 1]);
    }
    server.enqueue(b.build());
  }

  @Override
  public void close() {
    server.close();
  }
}
