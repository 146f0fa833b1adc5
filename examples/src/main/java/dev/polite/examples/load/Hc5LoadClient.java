package dev.polite.examples.load;

import dev.polite.Polite;
import dev.polite.PoliteListener;
import dev.polite.examples.clients.CountingRelay;
import dev.polite.httpclient5.PoliteAsyncExecChainHandler;
import dev.polite.httpclient5.PoliteExecChainHandler;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import okhttp3.HttpUrl;
import org.apache.hc.client5.http.async.methods.SimpleHttpResponse;
import org.apache.hc.client5.http.async.methods.SimpleRequestBuilder;
import org.apache.hc.client5.http.classic.methods.HttpGet;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.impl.async.CloseableHttpAsyncClient;
import org.apache.hc.client5.http.impl.async.HttpAsyncClients;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.client5.http.impl.nio.PoolingAsyncClientConnectionManagerBuilder;
import org.apache.hc.core5.concurrent.FutureCallback;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.util.Timeout;

/**
 * polite on Apache HttpClient 5 under load ({@code polite-hc5}): the classic client with
 * {@code PoliteExecChainHandler} installed, and for {@code --async} the async client with
 * {@code PoliteAsyncExecChainHandler}, both over one {@link Polite} told nothing about the server,
 * each with a connection for every caller and HttpClient's own retries off (one layer waits).
 * Blocking calls wait on the worker; async calls hold no thread while polite waits, and cancelling
 * one cancels HttpClient's exchange. Its attempts are counted on the wire
 * ({@link RelayedLoadClient}).
 *
 * <p>Usage: {@code try (Hc5LoadClient client = Hc5LoadClient.open(urls, 16, listener, false, start)) { client.send(url, attempts); }}
 */
final class Hc5LoadClient extends RelayedLoadClient {
  private final CloseableHttpClient classic;
  private final CloseableHttpAsyncClient async;

  private Hc5LoadClient(CountingRelay relay, CloseableHttpClient classic, CloseableHttpAsyncClient async) {
    super(relay);
    this.classic = classic;
    this.async = async;
  }

  /** A client for calls to {@code urls}, {@code concurrency} at a time, with a relay started for their origins. */
  static Hc5LoadClient open(List<HttpUrl> urls, int concurrency, PoliteListener listener, boolean observeOnly,
      long startNanos) throws IOException {
    CountingRelay relay = CountingRelay.start(urls, startNanos);
    Polite polite = Polite.builder().addListener(listener).observeOnly(observeOnly).build();
    ConnectionConfig connections = ConnectionConfig.custom()
        .setConnectTimeout(Timeout.of(JdkLoadClient.CONNECT_TIMEOUT)).build();
    CloseableHttpClient classic = PoliteExecChainHandler.create(polite).install(HttpClients.custom())
        .setConnectionManager(PoolingHttpClientConnectionManagerBuilder.create()
            .setMaxConnTotal(concurrency).setMaxConnPerRoute(concurrency)
            .setDefaultConnectionConfig(connections).build())
        .disableAutomaticRetries()
        .build();
    CloseableHttpAsyncClient async = PoliteAsyncExecChainHandler.create(polite).install(HttpAsyncClients.custom())
        .setConnectionManager(PoolingAsyncClientConnectionManagerBuilder.create()
            .setMaxConnTotal(concurrency).setMaxConnPerRoute(concurrency)
            .setDefaultConnectionConfig(connections).build())
        .disableAutomaticRetries()
        .build();
    async.start();
    return new Hc5LoadClient(relay, classic, async);
  }

  @Override
  int exchange(URI uri, String call) throws IOException {
    HttpGet get = new HttpGet(uri);
    get.addHeader(CountingRelay.CALL_HEADER, call);
    return classic.execute(get, response -> {
      if (response.getEntity() != null) {
        response.getEntity().writeTo(OutputStream.nullOutputStream());
      }
      return response.getCode();
    });
  }

  @Override
  CompletableFuture<Integer> exchangeAsync(URI uri, String call) {
    CompletableFuture<Integer> status = new CompletableFuture<>();
    Future<SimpleHttpResponse> exchange = async.execute(
        SimpleRequestBuilder.get(uri).addHeader(CountingRelay.CALL_HEADER, call).build(),
        new FutureCallback<>() {
          @Override
          public void completed(SimpleHttpResponse response) {
            status.complete(response.getCode());
          }

          @Override
          public void failed(Exception failure) {
            status.completeExceptionally(failure);
          }

          @Override
          public void cancelled() {
            status.cancel(false);
          }
        });
    status.whenComplete((s, failure) -> {
      if (status.isCancelled()) {
        exchange.cancel(true); // the run was cut: its wait ends, or its exchange on the wire
      }
    });
    return status;
  }

  @Override
  void closeEngine() {
    classic.close(CloseMode.IMMEDIATE);
    async.close(CloseMode.IMMEDIATE);
  }
}
