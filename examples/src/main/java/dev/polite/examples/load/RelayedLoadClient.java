package dev.polite.examples.load;

import dev.polite.examples.clients.CallAttempts;
import dev.polite.examples.clients.CountingRelay;
import dev.polite.examples.clients.WireCount;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.URI;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import okhttp3.HttpUrl;

/**
 * A client under load on an engine without OkHttp's interceptors (the JDK's client, Spring's
 * RestClient and WebClient, Apache HttpClient 5), whose attempts are counted where they happen:
 * on the wire, by a {@link CountingRelay} on loopback, which the client calls instead of each
 * target. {@code sent} is every request head the relay forwarded, the engine's own silent re-sends
 * included, and each call's request names the call in {@link CountingRelay#CALL_HEADER}, so the
 * relay counts the same attempts into the call's {@link CallAttempts}. What is engine-specific is
 * the exchange itself ({@link #exchange}, {@link #exchangeAsync}) and how the engine is closed.
 *
 * <p>Cutting the run cancels every async call's future and interrupts every thread in a
 * blocking call: the engines' own ways to give a call up. Plain {@code http} targets only.
 */
abstract class RelayedLoadClient implements LoadClient {
  private final CountingRelay relay;
  private final Set<Thread> sending = ConcurrentHashMap.newKeySet();
  private final Set<CompletableFuture<?>> inFlight = ConcurrentHashMap.newKeySet();
  private volatile boolean cut;

  RelayedLoadClient(CountingRelay relay) {
    this.relay = relay;
  }

  /**
   * One GET of {@code uri} (the relay's address for the target) carrying {@code call} in
   * {@link CountingRelay#CALL_HEADER}, on this thread, its body read whole; its status.
   */
  abstract int exchange(URI uri, String call) throws IOException, InterruptedException;

  /** As {@link #exchange}, holding no thread; cancelling the future gives the call up. */
  abstract CompletableFuture<Integer> exchangeAsync(URI uri, String call);

  /** Frees the engine's resources; the relay is closed already. */
  abstract void closeEngine();

  @Override
  public final int send(HttpUrl url, CallAttempts attempts) throws IOException {
    Thread caller = Thread.currentThread();
    sending.add(caller);
    String call = relay.follow(attempts);
    try {
      if (cut) { // checked after registering, so a cut racing with this call either sees it or is seen
        throw new InterruptedIOException("the run was cut");
      }
      return exchange(relay.through(url).uri(), call);
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
  public final CompletableFuture<Integer> sendAsync(HttpUrl url, CallAttempts attempts) {
    String name = relay.follow(attempts);
    CompletableFuture<Integer> call = exchangeAsync(relay.through(url).uri(), name);
    inFlight.add(call);
    if (cut) {
      call.cancel(true);
    }
    return call.handle((status, failure) -> {
      relay.forget(name);
      inFlight.remove(call);
      if (failure == null) {
        return status;
      }
      throw new CompletionException(ioException(url, failure));
    });
  }

  @Override
  public final void cut() {
    cut = true;
    for (CompletableFuture<?> call : inFlight) {
      call.cancel(true); // its wait ends at once, or its attempt on the wire is cancelled
    }
    for (Thread caller : sending) {
      caller.interrupt(); // a blocking call ends the engine's way
    }
  }

  @Override
  public final WireCount wire() {
    return relay;
  }

  /** Stops the relay, which closes the client's connections, then the engine. */
  @Override
  public final void close() {
    relay.close();
    closeEngine();
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
