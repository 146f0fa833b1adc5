package dev.polite.jdk;

import dev.polite.AsyncExchange;
import dev.polite.Exchange;
import dev.polite.Polite;
import dev.polite.PoliteAdapter;
import dev.polite.PoliteBuilder;
import dev.polite.Scheduler;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.net.Authenticator;
import java.net.CookieHandler;
import java.net.ProxySelector;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandler;
import java.net.http.HttpResponse.BodySubscriber;
import java.net.http.HttpResponse.BodySubscribers;
import java.net.http.HttpResponse.PushPromiseHandler;
import java.net.http.HttpResponse.ResponseInfo;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import org.jspecify.annotations.Nullable;

/**
 * Makes the JDK's {@link HttpClient} a polite caller of rate-limited APIs: an {@code HttpClient}
 * that wraps yours, to pass wherever one is taken. It paces calls per key, learns each key's
 * limit from the server's headers, pauses a key the server asked to wait, and retries what is
 * safe to retry, never sooner than the server asked. What it decides is polite's core
 * ({@link Polite}, the same on every engine); this class only carries the JDK's calls to it.
 *
 * <pre>{@code
 * HttpClient client = PoliteHttpClient.wrap(HttpClient.newHttpClient());
 * HttpResponse<String> r = client.send(request, BodyHandlers.ofString());
 * }</pre>
 *
 * <h2>send and sendAsync</h2>
 * {@code send} waits on the calling thread (a virtual thread is welcome: polite parks, never
 * pins). {@code sendAsync} waits without a thread: its waits are tasks on a {@link Scheduler},
 * and each attempt goes to the wrapped client only when its turn has come. Cancelling its future
 * ends the wait at once, or cancels the attempt on the wire. The attempts themselves are the
 * wrapped client's: its default executor (a cached pool) starts a worker for each exchange in
 * flight, so a burst of calls let go at once has as many; give the client an
 * {@code executor(...)} of your own to bound them (1,000 calls at 50 a second, burst 50, peaked
 * at 85 threads on the default executor, 18 on a pool of 4).
 *
 * <h2>Bodies</h2>
 * polite decides from an answer's status and headers, in the body handler, before any body is
 * read: an answer it retries is discarded unread, and the answer it returns goes to your body
 * handler as usual. A request whose body cannot be sent twice (see {@link JdkRequestView}) is
 * sent once. The body of a refusal is not read for hints ({@code readRetryHintsFromBody} reads
 * headers only here: the JDK reads a body once, and it is yours).
 *
 * <h2>The JDK client's conventions</h2>
 * The request's {@link HttpRequest#timeout()} bounds the whole call, its waits and attempts
 * together: a wait that would not fit fails at once with {@link dev.polite.RateLimitedException}
 * (an {@link IOException}), and each attempt is sent with the time left as its timeout, so the
 * JDK throws its {@link java.net.http.HttpTimeoutException} when the time runs out on the wire.
 * An interrupted {@code send} throws {@link InterruptedException}. Redirects, authentication,
 * cookies and HTTP/2 are the wrapped client's, which handles them inside each attempt: polite
 * sees the answer it would have returned.
 *
 * <p>Thread-safe: share one, as you share the client it wraps.
 */
public final class PoliteHttpClient extends HttpClient implements PoliteAdapter {
  private final HttpClient client;
  private final Polite polite;
  private final Scheduler scheduler;
  private final Executor executor;

  private PoliteHttpClient(HttpClient client, Polite polite, Scheduler scheduler) {
    this.client = client;
    this.polite = polite;
    this.scheduler = scheduler;
    this.executor = client.executor().orElseGet(ForkJoinPool::commonPool);
  }

  /**
   * {@code client}, made polite with every default: told nothing about the server.
   *
   * <pre>{@code HttpClient client = PoliteHttpClient.wrap(HttpClient.newHttpClient());}</pre>
   */
  public static PoliteHttpClient wrap(HttpClient client) {
    return builder(client).build();
  }

  /**
   * {@code client}, made polite by {@code polite}, sharing its keys with every other adapter over
   * it (an OkHttp client's, say).
   *
   * <pre>{@code PoliteHttpClient.wrap(HttpClient.newHttpClient(), polite)}</pre>
   */
  public static PoliteHttpClient wrap(HttpClient client, Polite polite) {
    return new PoliteHttpClient(Objects.requireNonNull(client, "client"),
        Objects.requireNonNull(polite, "polite"), Scheduler.system());
  }

  /**
   * Starts a configuration of polite over {@code client}; every option has a default.
   *
   * <pre>{@code PoliteHttpClient.builder(HttpClient.newHttpClient()).maxWait(Duration.ofSeconds(10)).build()}</pre>
   */
  public static Builder builder(HttpClient client) {
    return new Builder(Objects.requireNonNull(client, "client"));
  }

  /** The client this one sends through. */
  public HttpClient client() {
    return client;
  }

  /** The polite caller this client carries its calls to; its keys are this client's. */
  @Override
  public Polite polite() {
    return polite;
  }

  @Override
  public <T> HttpResponse<T> send(HttpRequest request, BodyHandler<T> handler)
      throws IOException, InterruptedException {
    Objects.requireNonNull(handler, "handler");
    BlockingAttempts<T> attempts = new BlockingAttempts<>(request, handler);
    try {
      return polite.call(attempts, attempts.timeoutNanos(), () -> false, attempts);
    } catch (InterruptedIOException e) {
      // The JDK's way: an interrupted send throws InterruptedException, the interrupt taken.
      boolean taken = Thread.interrupted();
      if (e instanceof Interrupted || taken) {
        InterruptedException interrupted = new InterruptedException(e.getMessage());
        interrupted.initCause(e);
        throw interrupted;
      }
      throw e;
    }
  }

  @Override
  public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request,
      BodyHandler<T> handler) {
    return sendAsync(request, handler, null);
  }

  @Override
  public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request,
      BodyHandler<T> handler, @Nullable PushPromiseHandler<T> pushPromises) {
    Objects.requireNonNull(handler, "handler");
    AsyncAttempts<T> attempts = new AsyncAttempts<>(request, handler, pushPromises);
    return polite.callAsync(attempts, attempts.timeoutNanos(), attempts, scheduler, executor);
  }

  /**
   * One call as polite sees it (its request's view), and its attempts through the wrapped client,
   * each with the call's time left as its timeout and this as its body handler, which asks
   * polite's judge first: an answer polite keeps goes to the caller's handler, one it does not is
   * discarded unread. One object per call; one attempt at a time.
   */
  private abstract class Attempts<T> extends JdkRequestView implements BodyHandler<T> {
    private final HttpRequest request;
    private final BodyHandler<T> handler;
    /** The judge of the attempt on the wire: set as it is sent, read as its answer comes. */
    private volatile Exchange.@Nullable Judge judge;
    /**
     * When the call's timeout ends, on {@link System#nanoTime()}; {@link Long#MAX_VALUE} for a
     * request without one.
     */
    private final long deadline;

    Attempts(HttpRequest request, BodyHandler<T> handler) {
      this.request = Objects.requireNonNull(request, "request");
      this.handler = handler;
      Optional<Duration> timeout = request.timeout();
      this.deadline = timeout.isPresent()
          ? saturated(System.nanoTime(), nanos(timeout.get())) : Long.MAX_VALUE;
    }

    /** The call's time left, in nanoseconds; {@link Long#MAX_VALUE} for a request without one. */
    long timeoutNanos() {
      return deadline == Long.MAX_VALUE ? Long.MAX_VALUE : Math.max(0, deadline - System.nanoTime());
    }

    @Override
    public HttpRequest request() {
      return request;
    }

    /** An answer polite does not return: its body handler discarded the body already. */
    public void discard(HttpResponse<T> response) {
      // nothing is held
    }

    /** This call's body handler for an attempt that {@code judge} judges. */
    BodyHandler<T> judgedBy(Exchange.Judge judge) {
      this.judge = judge;
      return this;
    }

    /** The caller's handler, behind polite's verdict on the answer's status and headers. */
    @Override
    public BodySubscriber<T> apply(ResponseInfo info) {
      return Objects.requireNonNull(judge).keep(JdkResponseView.of(info))
          ? handler.apply(info) : BodySubscribers.<T>replacing(null);
    }

    /** The request, with the call's time left as its timeout once some of it has gone. */
    HttpRequest attempt() {
      if (deadline == Long.MAX_VALUE) {
        return request;
      }
      long left = timeoutNanos();
      if (nanos(request.timeout().orElseThrow()) - left < 1_000_000) {
        return request; // within a millisecond of the start: the request's own timeout
      }
      return HttpRequest.newBuilder(request, (name, value) -> true)
          .timeout(Duration.ofNanos(Math.max(1_000_000, left))).build();
    }
  }

  /** {@code send}'s attempts: each blocks the calling thread. */
  private final class BlockingAttempts<T> extends Attempts<T>
      implements Exchange<HttpResponse<T>> {
    BlockingAttempts(HttpRequest request, BodyHandler<T> handler) {
      super(request, handler);
    }

    @Override
    public HttpResponse<T> send(Judge judge) throws IOException {
      try {
        return client.send(attempt(), judgedBy(judge));
      } catch (InterruptedException e) {
        throw new Interrupted(e); // turned back into an InterruptedException by send
      }
    }
  }

  /** {@code sendAsync}'s attempts: each a future of the wrapped client's. */
  private final class AsyncAttempts<T> extends Attempts<T>
      implements AsyncExchange<HttpResponse<T>> {
    private final @Nullable PushPromiseHandler<T> pushPromises;

    AsyncAttempts(HttpRequest request, BodyHandler<T> handler,
        @Nullable PushPromiseHandler<T> pushPromises) {
      super(request, handler);
      this.pushPromises = pushPromises;
    }

    @Override
    public CompletableFuture<HttpResponse<T>> send(Exchange.Judge judge) {
      return client.sendAsync(attempt(), judgedBy(judge), pushPromises);
    }
  }

  /** {@code now + nanos}, or {@link Long#MAX_VALUE} when it overflows (a timeout of centuries). */
  private static long saturated(long now, long nanos) {
    long sum = now + nanos;
    return nanos == Long.MAX_VALUE || ((now ^ sum) & (nanos ^ sum)) < 0 ? Long.MAX_VALUE : sum;
  }

  /** {@code d} in nanoseconds, saturated: a timeout of centuries is no timeout. */
  private static long nanos(Duration d) {
    try {
      return d.toNanos();
    } catch (ArithmeticException e) {
      return Long.MAX_VALUE;
    }
  }

  /** An interrupted attempt, carried through polite's core as an I/O interruption. */
  private static final class Interrupted extends InterruptedIOException {
    private static final long serialVersionUID = 1L;

    Interrupted(InterruptedException cause) {
      super("interrupted");
      initCause(cause);
    }
  }

  // Everything else is the wrapped client's.

  @Override
  public Optional<CookieHandler> cookieHandler() {
    return client.cookieHandler();
  }

  @Override
  public Optional<Duration> connectTimeout() {
    return client.connectTimeout();
  }

  @Override
  public Redirect followRedirects() {
    return client.followRedirects();
  }

  @Override
  public Optional<ProxySelector> proxy() {
    return client.proxy();
  }

  @Override
  public SSLContext sslContext() {
    return client.sslContext();
  }

  @Override
  public SSLParameters sslParameters() {
    return client.sslParameters();
  }

  @Override
  public Optional<Authenticator> authenticator() {
    return client.authenticator();
  }

  @Override
  public Version version() {
    return client.version();
  }

  @Override
  public Optional<Executor> executor() {
    return client.executor();
  }

  /** WebSockets are the wrapped client's: polite paces HTTP calls, not messages. */
  @Override
  public WebSocket.Builder newWebSocketBuilder() {
    return client.newWebSocketBuilder();
  }

  // Java 21's additions to HttpClient (no @Override, so that polite still compiles for Java 17),
  // passed on to the wrapped client where it has them.

  /** Shuts the wrapped client down (Java 21). */
  public void shutdown() {
    Lifecycle.run(Lifecycle.SHUTDOWN, client);
  }

  /** Shuts the wrapped client down at once (Java 21). */
  public void shutdownNow() {
    Lifecycle.run(Lifecycle.SHUTDOWN_NOW, client);
  }

  /** Whether the wrapped client has terminated (Java 21); false before Java 21. */
  public boolean isTerminated() {
    return Lifecycle.ask(Lifecycle.IS_TERMINATED, client);
  }

  /** Waits for the wrapped client to terminate (Java 21); true at once before Java 21. */
  public boolean awaitTermination(Duration duration) throws InterruptedException {
    Objects.requireNonNull(duration, "duration");
    return Lifecycle.await(client, duration);
  }

  /** Closes the wrapped client (Java 21). */
  public void close() {
    Lifecycle.run(Lifecycle.CLOSE, client);
  }

  @Override
  public String toString() {
    return "PoliteHttpClient{" + client + ", " + polite.config() + '}';
  }

  /** The wrapped client's Java 21 lifecycle methods, found once; null before Java 21. */
  private static final class Lifecycle {
    static final @Nullable MethodHandle SHUTDOWN = find("shutdown", MethodType.methodType(void.class));
    static final @Nullable MethodHandle SHUTDOWN_NOW = find("shutdownNow", MethodType.methodType(void.class));
    static final @Nullable MethodHandle CLOSE = find("close", MethodType.methodType(void.class));
    static final @Nullable MethodHandle IS_TERMINATED = find("isTerminated", MethodType.methodType(boolean.class));
    static final @Nullable MethodHandle AWAIT = find("awaitTermination",
        MethodType.methodType(boolean.class, Duration.class));

    private static @Nullable MethodHandle find(String name, MethodType type) {
      try {
        return MethodHandles.publicLookup().findVirtual(HttpClient.class, name, type);
      } catch (NoSuchMethodException | IllegalAccessException java17) {
        return null;
      }
    }

    static void run(@Nullable MethodHandle method, HttpClient client) {
      if (method == null) {
        return;
      }
      try {
        method.invoke(client);
      } catch (RuntimeException | Error e) {
        throw e;
      } catch (Throwable e) {
        throw new IllegalStateException(e);
      }
    }

    static boolean ask(@Nullable MethodHandle method, HttpClient client) {
      if (method == null) {
        return false;
      }
      try {
        return (boolean) method.invoke(client);
      } catch (RuntimeException | Error e) {
        throw e;
      } catch (Throwable e) {
        throw new IllegalStateException(e);
      }
    }

    static boolean await(HttpClient client, Duration duration) throws InterruptedException {
      if (AWAIT == null) {
        return true;
      }
      try {
        return (boolean) AWAIT.invoke(client, duration);
      } catch (RuntimeException | Error | InterruptedException e) {
        throw e;
      } catch (Throwable e) {
        throw new IllegalStateException(e);
      }
    }
  }

  /**
   * Configures polite over a JDK client: every option of {@link PoliteBuilder}, and the
   * scheduler {@code sendAsync} waits on. Not thread-safe; the client it builds is.
   *
   * <pre>{@code
   * HttpClient client = PoliteHttpClient.builder(HttpClient.newHttpClient())
   *     .key(RateLimitKey.header("X-Api-Key"))
   *     .maxWait(Duration.ofSeconds(10))
   *     .build();
   * }</pre>
   */
  public static final class Builder extends PoliteBuilder<Builder> {
    private final HttpClient client;
    private Scheduler scheduler = Scheduler.system();

    private Builder(HttpClient client) {
      this.client = client;
    }

    /**
     * What runs {@code sendAsync}'s calls when their waits end; it must read polite's ticker.
     * Default {@link Scheduler#system()}; tests pass one on a fake clock.
     */
    public Builder scheduler(Scheduler scheduler) {
      this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
      return this;
    }

    /** The polite client; each has its own keys, and its own copy of this configuration. */
    public PoliteHttpClient build() {
      return new PoliteHttpClient(client, buildPolite(), scheduler);
    }
  }
}
