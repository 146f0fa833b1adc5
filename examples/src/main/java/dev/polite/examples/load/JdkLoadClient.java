package dev.polite.examples.load;

import dev.polite.PoliteListener;
import dev.polite.examples.clients.CallAttempts;
import dev.polite.examples.clients.CountingRelay;
import dev.polite.examples.clients.WireCount;
import dev.polite.jdk.PoliteHttpClient;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import okhttp3.HttpUrl;

/**
 * polite on the JDK's {@code HttpClient} under load ({@code polite-jdk}): one
 * {@code PoliteHttpClient.wrap(HttpClient)} shared by every worker, told nothing about the server;
 * its {@code HttpClient} has only what the harness needs, HTTP/1.1 (no h2c upgrade on plain HTTP)
 * and a connect timeout. {@code send} blocks the worker, {@code sendAsync} holds no thread while
 * polite waits.
 *
 * <p>The JDK's client has no interceptors, so attempts are counted where they happen: on the
 * wire, by a {@link CountingRelay} on loopback, which the client calls instead of each target.
 * {@code sent} is every request head it forwarded, the JDK client's own re-sends included (it
 * sends a GET again once, by itself, when a pooled connection closes before any answer:
 * {@code MultiExchange} retries a {@code ConnectionExpiredException} once for GET and HEAD), and
 * each call's request names the call in {@link CountingRelay#CALL_HEADER}, so the relay counts the
 * same attempts into the call's {@link CallAttempts}: its retries are every attempt beyond its
 * first, polite's and the JDK client's alike. A head that comes on a connection the server had
 * closed is never forwarded, so nothing is held back as stale here. Plain {@code http} targets
 * only.
 *
 * <p>Usage: {@code try (JdkLoadClient client = JdkLoadClient.open(urls, PoliteListener.none(), false, System.nanoTime())) { client.send(url, attempts); }}
 */
final class JdkLoadClient implements LoadClient {
  /** How long a connection to the relay may take: the relay is on loopback. */
  static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);

  private final CountingRelay relay;
  private final PoliteHttpClient client;
  private final Set<Thread> sending = ConcurrentHashMap.newKeySet();
  private final Set<CompletableFuture<?>> inFlight = ConcurrentHashMap.newKeySet();
  private volatile boolean cut;

  private JdkLoadClient(CountingRelay relay, PoliteHttpClient client) {
    this.relay = relay;
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
  public int send(HttpUrl url, CallAttempts attempts) throws IOException {
    Thread caller = Thread.currentThread();
    sending.add(caller);
    String call = relay.follow(attempts);
    try {
      if (cut) { // checked after registering, so a cut racing with this call either sees it or is seen
        throw new InterruptedIOException("the run was cut");
      }
      return client.send(request(url, call), BodyHandlers.discarding()).statusCode();
    } catch (InterruptedException e) {
      InterruptedIOException cancelled = new InterruptedIOException("the run was cut");
      cancelled.initCause(e);
      throw cancelled;
    } catch (IOException e) {
      throw unreachableOr(url, e);
    } finally {
      relay.forget(call);
      sending.remove(caller);
    }
  }

  @Override
  public CompletableFuture<Integer> sendAsync(HttpUrl url, CallAttempts attempts) {
    String name = relay.follow(attempts);
    CompletableFuture<HttpResponse<Void>> call = client.sendAsync(request(url, name), BodyHandlers.discarding());
    inFlight.add(call);
    if (cut) {
      call.cancel(true);
    }
    return call.handle((response, failure) -> {
      relay.forget(name);
      inFlight.remove(call);
      if (failure == null) {
        return response.statusCode();
      }
      throw new CompletionException(ioException(url, failure));
    });
  }

  @Override
  public void cut() {
    cut = true;
    for (CompletableFuture<?> call : inFlight) {
      call.cancel(true); // its wait ends at once, or its attempt on the wire is cancelled
    }
    for (Thread caller : sending) {
      caller.interrupt(); // send throws InterruptedException, the JDK's way
    }
  }

  @Override
  public WireCount wire() {
    return relay;
  }

  /** Stops the relay, which closes the client's connections; the JDK 17 client has no close of its own. */
  @Override
  public void close() {
    relay.close();
    client.shutdownNow(); // Java 21 and later; nothing before
  }

  /** A GET of {@code url} through the relay, naming the call the relay counts it into. */
  private HttpRequest request(HttpUrl url, String call) {
    return HttpRequest.newBuilder(relay.through(url).uri()).header(CountingRelay.CALL_HEADER, call).GET().build();
  }

  /** What ended an async call, as the {@link IOException} a blocking one would have thrown. */
  private IOException ioException(HttpUrl url, Throwable failure) {
    Throwable cause = failure instanceof CompletionException && failure.getCause() != null
        ? failure.getCause() : failure;
    if (cause instanceof CancellationException) {
      InterruptedIOException cancelled = new InterruptedIOException("the run was cut");
      cancelled.initCause(cause);
      return cancelled;
    }
    return cause instanceof IOException io ? unreachableOr(url, io) : new IOException(cause);
  }

  /**
   * {@code failure}, or, when the relay could not connect to {@code url}'s server, that
   * {@link ConnectException}: the client only saw the relay close its connection.
   */
  private IOException unreachableOr(HttpUrl url, IOException failure) {
    IOException unreachable = relay.unreachable(url);
    if (unreachable == null) {
      return failure;
    }
    ConnectException refused = new ConnectException("cannot connect to " + url.host() + ":" + url.port() + ": "
        + unreachable.getMessage());
    refused.initCause(unreachable);
    return refused;
  }
}
