package dev.polite.examples.load;

import dev.polite.PoliteListener;
import dev.polite.examples.clients.CountingRelay;
import dev.polite.spring.PoliteRequestInterceptor;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import okhttp3.HttpUrl;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.core5.util.Timeout;
import org.springframework.http.client.ClientHttpRequestFactory;
import org.springframework.http.client.HttpComponentsClientHttpRequestFactory;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.client.RestClient;

/**
 * polite on Spring's {@code RestClient} under load: {@code RestClient.builder()} with
 * {@code PoliteRequestInterceptor.create()}, told nothing about the server, on the JDK's request
 * factory ({@code polite-spring}) or on Apache HttpClient 5's ({@code polite-spring-hc5}, a pool as
 * large as the run's callers, its own retries off as the interceptor's docs advise). RestClient
 * blocks: it has no async call, so {@code --async} is {@code polite-webclient}'s. Its attempts are
 * counted on the wire ({@link RelayedLoadClient}).
 *
 * <p>Usage: {@code try (SpringLoadClient client = SpringLoadClient.onJdk(urls, listener, false, start)) { client.send(url, attempts); }}
 */
final class SpringLoadClient extends RelayedLoadClient {
  private final RestClient client;
  private final AutoCloseable engine;

  private SpringLoadClient(CountingRelay relay, ClientHttpRequestFactory factory, AutoCloseable engine,
      PoliteListener listener, boolean observeOnly) {
    super(relay);
    this.client = RestClient.builder().requestFactory(factory)
        .requestInterceptor(PoliteRequestInterceptor.builder().addListener(listener).observeOnly(observeOnly).build())
        .build();
    this.engine = engine;
  }

  /** RestClient on the JDK's request factory (HTTP/1.1, as {@code polite-jdk}'s client). */
  static SpringLoadClient onJdk(List<HttpUrl> urls, PoliteListener listener, boolean observeOnly, long startNanos)
      throws IOException {
    CountingRelay relay = CountingRelay.start(urls, startNanos);
    HttpClient jdk = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(JdkLoadClient.CONNECT_TIMEOUT).build();
    return new SpringLoadClient(relay, new JdkClientHttpRequestFactory(jdk), () -> { }, listener, observeOnly);
  }

  /** RestClient on HttpClient 5's request factory, with a connection for each caller. */
  static SpringLoadClient onHttpClient5(List<HttpUrl> urls, int concurrency, PoliteListener listener,
      boolean observeOnly, long startNanos) throws IOException {
    CountingRelay relay = CountingRelay.start(urls, startNanos);
    CloseableHttpClient hc5 = HttpClients.custom()
        .setConnectionManager(PoolingHttpClientConnectionManagerBuilder.create()
            .setMaxConnTotal(concurrency).setMaxConnPerRoute(concurrency)
            .setDefaultConnectionConfig(ConnectionConfig.custom()
                .setConnectTimeout(Timeout.of(JdkLoadClient.CONNECT_TIMEOUT)).build())
            .build())
        .disableAutomaticRetries() // polite retries 429 and 503: one layer waits
        .build();
    return new SpringLoadClient(relay, new HttpComponentsClientHttpRequestFactory(hc5), hc5, listener,
        observeOnly);
  }

  @Override
  int exchange(URI uri, String call) throws IOException {
    try {
      return client.get().uri(uri).header(CountingRelay.CALL_HEADER, call)
          .exchange((request, response) -> {
            response.getBody().transferTo(OutputStream.nullOutputStream());
            return response.getStatusCode().value();
          });
    } catch (ResourceAccessException e) {
      // Spring's I/O error: its cause is what the engine or polite threw
      throw e.getCause() instanceof IOException io ? io : new IOException(e);
    }
  }

  @Override
  CompletableFuture<Integer> exchangeAsync(URI uri, String call) {
    return CompletableFuture.failedFuture(new UnsupportedOperationException(
        "RestClient has no async call: --async is polite-webclient's"));
  }

  @Override
  void closeEngine() {
    try {
      engine.close();
    } catch (Exception e) {
      // closing at the end of a run: nothing is left to tell
    }
  }
}
