package dev.polite.examples.load;

import dev.polite.PoliteListener;
import dev.polite.examples.clients.AttemptCounter;
import dev.polite.examples.clients.CallAttempts;
import dev.polite.examples.clients.ClientKind;
import dev.polite.examples.clients.WireCount;
import dev.polite.okhttp.PoliteCallFactory;
import java.io.IOException;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import okhttp3.Call;
import okhttp3.Callback;
import okhttp3.Dispatcher;
import okhttp3.HttpUrl;
import okhttp3.Interceptor;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;

/**
 * An OkHttp client of one kind, under load: one {@code OkHttpClient} shared by every worker, with
 * the kind's interceptors, as an application would share it (a client's state, polite's learned
 * limit or the paced bucket, is per client, not per call). An {@link AttemptCounter}, a network
 * interceptor, counts every exchange OkHttp puts on a connection, its own silent re-sends included,
 * as sent and as one more attempt of its call's {@link CallAttempts}. Async calls go through
 * {@code enqueue} on a
 * {@link PoliteCallFactory} over the client, so that they wait for their pace without a thread.
 *
 * <p>Usage: {@code new OkHttpLoadClient(new OkHttpClient(), ClientKind.POLITE, 4.5, 5, PoliteListener.none(), false, 1, false, System.nanoTime())}
 */
final class OkHttpLoadClient implements LoadClient {
  private final OkHttpClient client;
  private final Call.Factory calls;
  private final AttemptCounter counter;
  private final Set<Call> inFlight = ConcurrentHashMap.newKeySet();
  private volatile boolean cut;

  /**
   * @param base the client to derive from (its connection pool is shared)
   * @param kind the client to measure, built on OkHttp
   * @param pacedRate the paced and failsafe clients' rate per second
   * @param pacedBurst the paced client's burst
   * @param listener hears polite's events, when the kind has polite in it
   * @param observeOnly whether its polite only observes
   * @param concurrency calls in flight at once, for the dispatcher of blocking calls
   * @param async whether calls go through a {@link PoliteCallFactory} (a kind with polite only)
   * @param startNanos the run's start on {@link System#nanoTime()}
   */
  OkHttpLoadClient(OkHttpClient base, ClientKind kind, double pacedRate, double pacedBurst, PoliteListener listener,
      boolean observeOnly, int concurrency, boolean async, long startNanos) {
    counter = new AttemptCounter(startNanos);
    Dispatcher dispatcher = new Dispatcher();
    if (!async) {
      // Blocking calls run on the workers' threads; the dispatcher only counts them.
      dispatcher.setMaxRequests(Math.max(64, concurrency));
      dispatcher.setMaxRequestsPerHost(Math.max(5, concurrency));
    } // async: OkHttp's defaults (64, 5 per host) are the threads a user's enqueue gets
    OkHttpClient.Builder builder = base.newBuilder().dispatcher(dispatcher);
    for (Interceptor interceptor : kind.interceptors(pacedRate, pacedBurst, listener, observeOnly)) {
      builder.addInterceptor(interceptor);
    }
    client = counter.addTo(builder).build();
    calls = async ? PoliteCallFactory.create(client) : client;
  }

  @Override
  public int send(HttpUrl url, CallAttempts attempts) throws IOException {
    Call call = newCall(url, attempts);
    try (Response response = call.execute()) {
      response.body().bytes(); // read it all, so the connection goes back to the pool
      return response.code();
    } finally {
      inFlight.remove(call);
    }
  }

  @Override
  public CompletableFuture<Integer> sendAsync(HttpUrl url, CallAttempts attempts) {
    CompletableFuture<Integer> answered = new CompletableFuture<>();
    Call call = newCall(url, attempts);
    call.enqueue(new Callback() {
      @Override
      public void onResponse(Call call, Response response) {
        try (response) {
          response.body().bytes();
          answered.complete(response.code());
        } catch (IOException e) {
          answered.completeExceptionally(e);
        } finally {
          inFlight.remove(call);
        }
      }

      @Override
      public void onFailure(Call call, IOException e) {
        inFlight.remove(call);
        answered.completeExceptionally(e);
      }
    });
    return answered;
  }

  /** A call of the client's, cancelled by {@link #cut()} from the moment it is made. */
  private Call newCall(HttpUrl url, CallAttempts attempts) {
    Call call = calls.newCall(CallAttempts.tag(new Request.Builder().url(url).get().build(), attempts));
    inFlight.add(call);
    if (cut) { // checked after registering, so a cut racing with this call either sees it or is seen
      call.cancel();
    }
    return call;
  }

  @Override
  public void cut() {
    cut = true;
    for (Call call : inFlight) {
      call.cancel();
    }
  }

  @Override
  public WireCount wire() {
    return counter;
  }

  /** Nothing to free: the connection pool is the base client's, and its owner's to evict. */
  @Override
  public void close() {}
}
