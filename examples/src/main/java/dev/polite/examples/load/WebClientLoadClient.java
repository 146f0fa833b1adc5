package dev.polite.examples.load;

import dev.polite.PoliteListener;
import dev.polite.examples.clients.CountingRelay;
import dev.polite.spring.PoliteExchangeFilter;
import java.io.IOException;
import java.net.URI;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import okhttp3.HttpUrl;
import org.springframework.http.client.reactive.ReactorClientHttpConnector;
import org.springframework.web.reactive.function.client.WebClient;
import org.springframework.web.reactive.function.client.WebClientRequestException;
import reactor.netty.http.client.HttpClient;
import reactor.netty.resources.ConnectionProvider;

/**
 * polite on Spring's {@code WebClient} under load ({@code polite-webclient}):
 * {@code WebClient.builder()} with {@code PoliteExchangeFilter.create()}, told nothing about the
 * server, on Reactor Netty with a pool of its own, closed with the run. {@code --async} subscribes
 * and holds no thread while polite waits (the future cancels the subscription when the run is
 * cut); blocking, each worker waits for the call as {@code block()} does, and an interrupt gives it up. Its
 * attempts are counted on the wire ({@link RelayedLoadClient}).
 *
 * <p>Usage: {@code try (WebClientLoadClient client = WebClientLoadClient.open(urls, listener, false, start)) { client.sendAsync(url, attempts); }}
 */
final class WebClientLoadClient extends RelayedLoadClient {
  private final ConnectionProvider connections;
  private final WebClient client;

  private WebClientLoadClient(CountingRelay relay, ConnectionProvider connections, PoliteListener listener,
      boolean observeOnly) {
    super(relay);
    this.connections = connections;
    this.client = WebClient.builder()
        .clientConnector(new ReactorClientHttpConnector(HttpClient.create(connections)))
        .filter(PoliteExchangeFilter.builder().addListener(listener).observeOnly(observeOnly).build())
        .build();
  }

  /** A client for calls to {@code urls}, with a relay started for their origins. */
  static WebClientLoadClient open(List<HttpUrl> urls, PoliteListener listener, boolean observeOnly,
      long startNanos) throws IOException {
    return new WebClientLoadClient(CountingRelay.start(urls, startNanos),
        ConnectionProvider.create("polite-webclient-load", 1_000), listener, observeOnly);
  }

  /** Waits for the exchange as {@code block()} would, but gives the call up when interrupted. */
  @Override
  int exchange(URI uri, String call) throws IOException, InterruptedException {
    CompletableFuture<Integer> exchange = exchangeAsync(uri, call);
    try {
      return exchange.get();
    } catch (InterruptedException e) {
      exchange.cancel(true);
      throw e;
    } catch (ExecutionException e) {
      throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
    }
  }

  @Override
  CompletableFuture<Integer> exchangeAsync(URI uri, String call) {
    return client.get().uri(uri).header(CountingRelay.CALL_HEADER, call)
        .exchangeToMono(response -> response.releaseBody().thenReturn(response.statusCode().value()))
        // WebClient's I/O error: its cause is what the engine threw
        .onErrorMap(WebClientRequestException.class, e -> e.getCause() instanceof IOException io ? io : e)
        .toFuture();
  }

  @Override
  void closeEngine() {
    connections.dispose();
  }
}
