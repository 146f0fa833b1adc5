package dev.polite.httpclient5;

import dev.polite.AsyncExchange;
import dev.polite.Exchange;
import dev.polite.Polite;
import dev.polite.PoliteAdapter;
import dev.polite.PoliteBuilder;
import dev.polite.Scheduler;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;
import org.apache.hc.client5.http.async.AsyncExecCallback;
import org.apache.hc.client5.http.async.AsyncExecChain;
import org.apache.hc.client5.http.async.AsyncExecChainHandler;
import org.apache.hc.client5.http.impl.ChainElement;
import org.apache.hc.client5.http.impl.async.HttpAsyncClientBuilder;
import org.apache.hc.core5.concurrent.Cancellable;
import org.apache.hc.core5.http.EntityDetails;
import org.apache.hc.core5.http.HttpException;
import org.apache.hc.core5.http.HttpRequest;
import org.apache.hc.core5.http.HttpResponse;
import org.apache.hc.core5.http.nio.AsyncDataConsumer;
import org.apache.hc.core5.http.nio.AsyncEntityProducer;
import org.apache.hc.core5.http.nio.entity.DiscardingEntityConsumer;
import org.apache.hc.core5.http.protocol.HttpContext;
import org.apache.hc.core5.http.support.BasicRequestBuilder;
import org.jspecify.annotations.Nullable;

/**
 * Makes Apache HttpClient 5's async client a polite caller of rate-limited APIs, waiting without
 * holding a thread: as {@link PoliteExecChainHandler} does for the classic client, with its waits
 * as tasks on a {@link Scheduler}. What it decides is polite's core ({@link Polite#callAsync});
 * this handler only carries HttpClient's exchanges to it.
 *
 * <pre>{@code
 * CloseableHttpAsyncClient client = PoliteAsyncExecChainHandler.create()
 *     .install(HttpAsyncClients.custom())
 *     .build();
 * client.start();
 * }</pre>
 *
 * <h2>Where it sits</h2>
 * The async chain runs, outermost first: {@code REDIRECT}, {@code COMPRESS}, {@code RETRY},
 * {@code PROTOCOL}, {@code CONNECT}, {@code MAIN_TRANSPORT}. {@link #install} takes HttpClient's
 * retry handler out ({@code disableAutomaticRetries()}) and puts polite in its place, just outside
 * {@code PROTOCOL}: one layer retries, and it is the one that waits. The reasons are the classic
 * handler's (see {@link PoliteExecChainHandler}): HttpClient's {@code AsyncHttpRequestRetryExec}
 * would retry a 429 or 503 by itself, after the server's whole Retry-After, and resend what polite
 * gave up on. By hand: {@code disableAutomaticRetries()} and
 * {@code addExecInterceptorBefore(ChainElement.PROTOCOL.name(), NAME, handler)}; not before
 * {@code RETRY}, which is then missing, and HttpClient drops a handler placed before a missing
 * element without a word.
 *
 * <h2>How an exchange is carried</h2>
 * The chain is callbacks: an answer's head comes to {@code handleResponse}, which must say at once
 * who consumes its body. polite's judge answers there, from the status and headers:
 * <ul>
 *   <li>An answer polite keeps is handed to the caller's callback, whose consumer reads its body
 *       as usual; the chain's {@code completed} or {@code failed} then ends the exchange, and
 *       polite is done with the call.
 *   <li>An answer polite does not keep gets a consumer that discards its body; when the body has
 *       gone, the connection goes back to the pool (it is not held through the wait), and polite
 *       waits, on its scheduler, before the next attempt, which goes down the chain again as
 *       HttpClient's own retry handler resends: a fresh copy of the request, and the request's
 *       entity producer {@linkplain AsyncEntityProducer#releaseResources() rewound}. A request
 *       whose producer is not {@linkplain AsyncEntityProducer#isRepeatable() repeatable} is sent
 *       once.
 *   <li>An attempt that fails is judged as polite judges I/O errors (retried only when the request
 *       may be repeated); its connection is discarded first, as HttpClient's retry handler does. A
 *       failure that is no I/O error (a protocol error) ends the call unretried, as HttpClient's
 *       handler would. Whatever ends the call without an answer reaches the caller's
 *       {@code failed}, on the executor: a {@link dev.polite.RateLimitedException} when polite
 *       gives up and was asked to throw.
 * </ul>
 * Cancelling the call's future ends a wait at once (the handler is the future's dependency while
 * polite waits), and nothing more is sent; on the wire, HttpClient cancels the exchange itself.
 * The response timeout bounds polite's waits as on the classic client ({@link ResponseTimeout}),
 * and hints come in the call's context ({@link RequestHints}).
 *
 * <p>Thread-safe: share one, as you share the client.
 */
public final class PoliteAsyncExecChainHandler implements AsyncExecChainHandler, PoliteAdapter {
  /** The name {@link #install} gives the handler in HttpClient's chain. */
  public static final String NAME = "polite";

  private final Polite polite;
  private final Scheduler scheduler;
  private final Executor executor;

  private PoliteAsyncExecChainHandler(Polite polite, Scheduler scheduler, Executor executor) {
    this.polite = polite;
    this.scheduler = scheduler;
    this.executor = executor;
  }

  /**
   * A handler with every default: told nothing about the server, waiting on
   * {@link Scheduler#system()}.
   *
   * <pre>{@code PoliteAsyncExecChainHandler.create().install(HttpAsyncClients.custom()).build()}</pre>
   */
  public static PoliteAsyncExecChainHandler create() {
    return builder().build();
  }

  /**
   * A handler over {@code polite}, sharing its keys with every other adapter over it (a classic
   * client's handler, say), waiting on {@link Scheduler#system()}.
   *
   * <pre>{@code PoliteAsyncExecChainHandler.create(polite)}</pre>
   */
  public static PoliteAsyncExecChainHandler create(Polite polite) {
    return new PoliteAsyncExecChainHandler(Objects.requireNonNull(polite, "polite"),
        Scheduler.system(), ForkJoinPool.commonPool());
  }

  /**
   * Starts a configuration; every option has a default (see the README's reference).
   *
   * <pre>{@code PoliteAsyncExecChainHandler.builder().maxWait(Duration.ofSeconds(10)).build()}</pre>
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Puts this handler in {@code builder}'s chain in the place of HttpClient's retry handler, which
   * it disables (see the class comment); {@code builder}, to go on with.
   *
   * <pre>{@code CloseableHttpAsyncClient client = handler.install(HttpAsyncClients.custom()).build();}</pre>
   */
  public HttpAsyncClientBuilder install(HttpAsyncClientBuilder builder) {
    return Objects.requireNonNull(builder, "builder")
        .disableAutomaticRetries()
        .addExecInterceptorBefore(ChainElement.PROTOCOL.name(), NAME, this);
  }

  /** The polite caller this handler carries HttpClient's exchanges to; its keys are this one's. */
  @Override
  public Polite polite() {
    return polite;
  }

  @Override
  public void execute(HttpRequest request, @Nullable AsyncEntityProducer entityProducer,
      AsyncExecChain.Scope scope, AsyncExecChain chain, AsyncExecCallback callback) {
    new Call(request, entityProducer, scope, chain, callback).start();
  }

  @Override
  public String toString() {
    return "PoliteAsyncExecChainHandler{" + polite.config() + '}';
  }

  /**
   * One exchange as polite sees it (its request's view), its attempts down the rest of the chain,
   * and its end towards the caller's callback, which hears exactly one of: the answer polite kept
   * (then the chain ends it), or the failure polite's call ended with. While polite waits the call
   * is the exchange's cancellable dependency, so that a cancel reaches it.
   */
  private final class Call extends ChainRequestView
      implements AsyncExchange<HttpResponse>, Cancellable, BiConsumer<HttpResponse, Throwable> {
    private final HttpRequest request;
    private final @Nullable AsyncEntityProducer body;
    private final AsyncExecChain.Scope scope;
    private final AsyncExecChain chain;
    private final AsyncExecCallback callback;
    /** Set once the caller's callback is the answer's or the failure's: it hears one of them. */
    private final AtomicBoolean settled = new AtomicBoolean();
    private volatile @Nullable CompletableFuture<HttpResponse> outcome;
    private volatile boolean canceled;
    /** A failure of the engine's that is no I/O error: the call ends with it, unretried. */
    private volatile @Nullable Exception engineFailure;
    /** Attempts sent: polite sends one at a time, each after the last one's end. */
    private volatile int sent;

    Call(HttpRequest request, @Nullable AsyncEntityProducer body, AsyncExecChain.Scope scope,
        AsyncExecChain chain, AsyncExecCallback callback) {
      this.request = request;
      this.body = body;
      this.scope = scope;
      this.chain = chain;
      this.callback = callback;
    }

    @Override
    HttpRequest request() {
      return request;
    }

    @Override
    HttpContext context() {
      return scope.clientContext;
    }

    @Override
    public boolean bodyRepeatable() {
      AsyncEntityProducer producer = body;
      return producer == null || producer.isRepeatable();
    }

    /** Hands the call to polite, the call the exchange's dependency until an attempt goes out. */
    void start() {
      scope.cancellableDependency.setDependency(this);
      if (canceled) {
        accept(null, new CancellationException("Request execution cancelled"));
        return;
      }
      CompletableFuture<HttpResponse> call = polite.callAsync(this,
          ResponseTimeout.nanosOf(scope.clientContext), this, scheduler, executor);
      outcome = call;
      if (canceled) {
        call.cancel(true);
      }
      call.whenComplete(this);
    }

    /** The exchange was cancelled while polite held it: polite's call ends, its wait with it. */
    @Override
    public boolean cancel() {
      canceled = true;
      CompletableFuture<HttpResponse> call = outcome;
      if (call != null) {
        call.cancel(true);
      }
      return true;
    }

    @Override
    public CompletableFuture<HttpResponse> send(Exchange.Judge judge) {
      if (scope.cancellableDependency.isCancelled()) {
        return CompletableFuture.failedFuture(new InterruptedIOException("Request aborted"));
      }
      AsyncEntityProducer producer = body;
      if (sent++ > 0 && producer != null) {
        producer.releaseResources(); // rewound for the resend, as HttpClient's retry handler does
      }
      Attempt attempt = new Attempt(judge);
      try {
        chain.proceed(BasicRequestBuilder.copy(request).build(), producer, scope, attempt);
      } catch (HttpException | IOException | RuntimeException e) {
        attempt.failed(e);
      }
      return attempt.answer;
    }

    /** Nothing to let go of: a body polite does not keep is discarded as it comes. */
    @Override
    public void discard(HttpResponse response) {
      // the attempt's discarding consumer read it, and its connection went back
    }

    /** polite's call ended: a failure goes to the caller; an answer went already. */
    @Override
    public void accept(@Nullable HttpResponse answer, @Nullable Throwable failure) {
      if (failure != null && settled.compareAndSet(false, true)) {
        callback.failed(reason(failure));
      }
    }

    /** What the caller hears when polite's call ended with {@code failure}. */
    private Exception reason(Throwable failure) {
      Exception engine = engineFailure;
      if (engine != null) {
        return engine;
      }
      Throwable cause = failure;
      while (cause instanceof CompletionException && cause.getCause() != null) {
        cause = cause.getCause();
      }
      if (cause instanceof CancellationException) {
        return new CancellationException("Request execution cancelled");
      }
      return cause instanceof Exception e ? e : new IOException("polite: " + cause, cause);
    }

    /** Between attempts the call is the exchange's dependency again, so that a cancel ends the wait. */
    private void between() {
      scope.cancellableDependency.setDependency(this);
    }

    /**
     * One attempt's callback: judges the answer's head, hands a kept answer on to the caller's
     * callback, and discards one polite does not keep; its future completes when polite may go on
     * (a kept answer at its head; a discarded one once its body is gone and its connection back).
     */
    private final class Attempt implements AsyncExecCallback {
      private final Exchange.Judge judge;
      final CompletableFuture<HttpResponse> answer = new CompletableFuture<>();
      private volatile @Nullable HttpResponse refused;
      private volatile boolean kept;

      Attempt(Exchange.Judge judge) {
        this.judge = judge;
      }

      @Override
      public AsyncDataConsumer handleResponse(HttpResponse response,
          @Nullable EntityDetails entityDetails) throws HttpException, IOException {
        if (judge.keep(new ChainResponseView(response)) && settled.compareAndSet(false, true)) {
          kept = true;
          try {
            return callback.handleResponse(response, entityDetails);
          } finally {
            answer.complete(response);
          }
        }
        refused = response; // or kept too late: the caller heard its call end already
        return new DiscardingEntityConsumer<>();
      }

      @Override
      public void handleInformationResponse(HttpResponse response)
          throws HttpException, IOException {
        callback.handleInformationResponse(response);
      }

      @Override
      public void completed() {
        if (kept) {
          callback.completed();
          return;
        }
        HttpResponse discarded = refused;
        if (discarded == null) {
          failed(new IOException("polite: the exchange ended without an answer"));
          return;
        }
        scope.execRuntime.releaseEndpoint(); // back to the pool, not held through the wait
        between();
        answer.complete(discarded);
      }

      @Override
      public void failed(Exception cause) {
        if (kept) {
          callback.failed(cause);
          return;
        }
        scope.execRuntime.discardEndpoint();
        between();
        if (cause instanceof IOException io) {
          answer.completeExceptionally(io);
        } else {
          engineFailure = cause;
          answer.completeExceptionally(new Unretried(cause));
        }
      }
    }
  }

  /**
   * A failure that polite must not retry, carried through its core as the one kind of I/O error
   * it never retries (an interruption); the caller hears the failure itself.
   */
  private static final class Unretried extends InterruptedIOException {
    private static final long serialVersionUID = 1L;

    Unretried(Exception cause) {
      super("polite: not retried: " + cause);
      initCause(cause);
    }
  }

  /**
   * Configures a {@link PoliteAsyncExecChainHandler}: every option of {@link PoliteBuilder}, the
   * scheduler its waits are tasks on, and the executor a call's failure is told on. Not
   * thread-safe; the handler it builds is.
   *
   * <pre>{@code
   * PoliteAsyncExecChainHandler polite = PoliteAsyncExecChainHandler.builder()
   *     .key(RateLimitKey.header("X-Api-Key"))
   *     .maxWait(Duration.ofSeconds(10))
   *     .build();
   * }</pre>
   */
  public static final class Builder extends PoliteBuilder<Builder> {
    private Scheduler scheduler = Scheduler.system();
    private Executor executor = ForkJoinPool.commonPool();

    private Builder() {}

    /**
     * What runs a call's next step when its wait ends; it must read polite's ticker. Default
     * {@link Scheduler#system()}; tests pass one on a fake clock.
     */
    public Builder scheduler(Scheduler scheduler) {
      this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
      return this;
    }

    /**
     * Where a call that ends without an answer (refused or cancelled while it waits) tells the
     * caller's callback, so that the caller's code never runs on the scheduler's one thread.
     * Default {@link ForkJoinPool#commonPool()}.
     */
    public Builder executor(Executor executor) {
      this.executor = Objects.requireNonNull(executor, "executor");
      return this;
    }

    /** The handler; each has its own keys, and its own copy of this configuration. */
    public PoliteAsyncExecChainHandler build() {
      return new PoliteAsyncExecChainHandler(buildPolite(), scheduler, executor);
    }
  }
}
