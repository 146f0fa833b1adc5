package dev.polite.examples.load;

import dev.polite.PoliteListener;
import dev.polite.examples.clients.CountingRelay;
import dev.polite.jdk.PoliteHttpClient;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import okhttp3.HttpUrl;

/**
 * polite on the JDK's {@code HttpClient} under load ({@code polite-jdk}): one
 * {@code PoliteHttpClient.wrap(HttpClient)} shared by every worker, told nothing about the server;
 * its {@code HttpClient} has only what the harness needs, HTTP/1.1 (no h2c upgrade on plain HTTP)
 * and a connect timeout. {@code send} blocks the worker, {@code sendAsync} holds no thread while
 * polite waits. Its attempts are counted on the wire ({@link RelayedLoadClient}), the JDK
 * client's own re-sends included (it sends a GET again once, by itself, when a pooled connection
 * closes before any answer: {@code MultiExchange} retries a {@code ConnectionExpiredException}
 * once for GET and HEAD). An interrupted {@code send} throws {@code InterruptedException}.
 *
 * <p>Usage: {@code try (JdkLoadClient client = JdkLoadClient.open(urls, PoliteListener.none(), false, System.nanoTime())) { client.send(url, attempts); }}
 */
final class JdkLoadClient extends RelayedLoadClient {
  /** How long a connection to the relay may take: the relay is on loopback. */
  static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);

  private final PoliteHttpClient client;

  private JdkLoadClient(CountingRelay relay, PoliteHttpClient client) {
    super(relay);
    this.client = client;
  }

  /**
   * A client for calls to {@code urls}, with a relay started for their origins.
   *
   * @param listener hears polite's events
   * @param observeOnly whether polite only observes
   * @param startNanos the run's start on {@link System#nanoTime()}
   * @throws IllegalArgumentException for a URL that is not plain {@code http}
   * @throws IOException when the relay cannot start
   */
  static JdkLoadClient open(List<HttpUrl> urls, PoliteListener listener, boolean observeOnly, long startNanos)
      throws IOException {
    CountingRelay relay = CountingRelay.start(urls, startNanos);
    HttpClient jdk = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(CONNECT_TIMEOUT).build();
    return new JdkLoadClient(relay, PoliteHttpClient.builder(jdk).addListener(listener).observeOnly(observeOnly)
        .build());
  }

  @Override
  int exchange(URI uri, String call) throws IOException, InterruptedException {
    return client.send(request(uri, call), BodyHandlers.discarding()).statusCode();
  }

  @Override
  CompletableFuture<Integer> exchangeAsync(URI uri, String call) {
    CompletableFuture<HttpResponse<Void>> exchange = client.sendAsync(request(uri, call), BodyHandlers.discarding());
    // cancelling what the runner holds cancels the exchange: its wait ends, or its attempt on the wire
    CompletableFuture<Integer> status = exchange.thenApply(HttpResponse::statusCode);
    status.whenComplete((s, failure) -> {
      if (status.isCancelled()) {
        exchange.cancel(true);
      }
    });
    return status;
  }

  /** The JDK 17 client has no close of its own; Java 21's shuts it down. */
  @Override
  void closeEngine() {
    client.shutdownNow();
  }

  private static HttpRequest request(URI uri, String call) {
    return HttpRequest.newBuilder(uri).header(CountingRelay.CALL_HEADER, call).GET().build();
  }
}
