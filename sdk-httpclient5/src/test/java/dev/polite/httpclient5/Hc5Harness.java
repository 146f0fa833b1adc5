package dev.polite.httpclient5;

import dev.polite.testing.FakeClock;
import java.io.IOException;
import java.util.Random;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClientBuilder;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.core5.http.ClassicHttpRequest;
import org.apache.hc.core5.http.io.entity.EntityUtils;
import org.apache.hc.core5.http.protocol.HttpContext;
import org.apache.hc.core5.util.Timeout;
import org.jspecify.annotations.Nullable;

/**
 * A MockWebServer, a fake clock, and real classic HttpClients on a pool of one connection, made
 * polite on that clock. A connection an answer kept from the pool shows at once: the next lease
 * fails after {@link #LEASE_TIMEOUT} instead of being served.
 */
final class Hc5Harness implements AutoCloseable {
  /** How long a lease waits for the pool's one connection, real time: a bound, not an assertion. */
  static final Timeout LEASE_TIMEOUT = Timeout.ofSeconds(5);

  final MockWebServer server = new MockWebServer();
  final FakeClock clock = new FakeClock();
  final PoolingHttpClientConnectionManager pool = PoolingHttpClientConnectionManagerBuilder.create()
      .setMaxConnTotal(1).setMaxConnPerRoute(1).build();
  private @Nullable CloseableHttpClient client;

  /** What the caller's response handler was given: the status and the body it read. */
  record Answer(int status, String body) {}

  Hc5Harness() throws IOException {
    server.start();
  }

  String url(String path) {
    return server.url(path).toString();
  }

  /** A builder wired to the fake clock, with seeded jitter. */
  PoliteExecChainHandler.Builder polite() {
    return PoliteExecChainHandler.builder().clock(clock, clock).wallClock(clock).random(new Random(42));
  }

  /** A client builder on the harness's pool of one, its leases bounded. */
  HttpClientBuilder custom() {
    return HttpClients.custom().setConnectionManager(pool).setConnectionManagerShared(true)
        .setDefaultRequestConfig(RequestConfig.custom().setConnectionRequestTimeout(LEASE_TIMEOUT).build());
  }

  /** A client with {@code handler} installed the documented way; closed with the harness. */
  CloseableHttpClient client(PoliteExecChainHandler handler) {
    return adopt(handler.install(custom()).build());
  }

  /** {@code built}, closed with the harness. */
  CloseableHttpClient adopt(CloseableHttpClient built) {
    this.client = built;
    return built;
  }

  /** Executes {@code request} and reads its answer as a caller does, with a response handler. */
  static Answer execute(CloseableHttpClient client, ClassicHttpRequest request) throws IOException {
    return execute(client, request, null);
  }

  static Answer execute(CloseableHttpClient client, ClassicHttpRequest request,
      @Nullable HttpContext context) throws IOException {
    return client.execute(request, context, response -> new Answer(response.getCode(),
        response.getEntity() == null ? "" : EntityUtils.toString(response.getEntity())));
  }

  /** Connections the pool has leased out now: 0 once every answer was let go of. */
  int leased() {
    return pool.getTotalStats().getLeased();
  }

  static MockResponse status(int code, String... headers) {
    MockResponse.Builder b = new MockResponse.Builder().code(code);
    for (int i = 0; i < headers.length; i += 2) {
      b.addHeader(headers[i], headers[i + 1]);
    }
    return b.body(code == 200 ? "hello" : "refused").build();
  }

  @Override
  public void close() throws IOException {
    CloseableHttpClient built = client;
    if (built != null) {
      built.close();
    }
    pool.close();
    server.close();
  }
}
