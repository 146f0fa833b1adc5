package dev.polite.spring;

import dev.polite.AsyncExchange;
import dev.polite.Exchange;
import dev.polite.Polite;
import dev.polite.PoliteAdapter;
import dev.polite.PoliteBuilder;
import dev.polite.Scheduler;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import org.springframework.web.reactive.function.client.ClientRequest;
import org.springframework.web.reactive.function.client.ClientResponse;
import org.springframework.web.reactive.function.client.ExchangeFilterFunction;
import org.springframework.web.reactive.function.client.ExchangeFunction;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import reactor.util.context.ContextView;

/**
 * Makes Spring's {@code WebClient} a polite caller of rate-limited APIs, holding no thread while
 * a call waits: it paces calls per key, learns each key's limit from the server's headers, pauses
 * a key the server asked to wait, and retries what is safe to retry, never sooner than the server
 * asked. What it decides is polite's core ({@link Polite}); this filter only carries
 * {@code WebClient}'s exchanges to it.
 *
 * <pre>{@code
 * WebClient client = WebClient.builder()
 *     .filter(PoliteExchangeFilter.create())
 *     .build();
 * }</pre>
 *
 * <h2>Waiting without a thread</h2>
 * A call's waits (its pace, a pause, a retry's delay) are tasks on a {@link Scheduler}
 * ({@link Scheduler#system()}: one shared daemon thread), and each attempt is the next filter's
 * exchange, subscribed only when its turn has come, in the subscriber's Reactor context. A call
 * refused or given up while it waits completes on Reactor's parallel scheduler, never on polite's
 * thread. Disposing of the subscription (a {@code timeout()}, a cancelled {@code Flux}) ends the
 * wait at once, or cancels the attempt on the wire, and the call gives its place back.
 *
 * <h2>WebClient's conventions</h2>
 * An answer polite retries has its body released unread; the one it returns goes downstream as
 * usual, so a refusal polite gave up on becomes {@code WebClientResponseException.TooManyRequests}
 * under {@code retrieve()}. A call that cannot be sent in time, or a refusal when
 * {@link PoliteBuilder#throwWhenRateLimited} is set, errors with
 * {@link dev.polite.RateLimitedException}. Filters run in the order they were added, the first
 * outermost: the filters added after this one run again on every attempt, so add it before those
 * that sign a request (each attempt is signed anew) and after one that adds a header your key
 * function reads. A request's hints travel in its attributes
 * ({@link RequestHints}). {@code WebClient} writes a request's body anew for every exchange, so
 * every request can be sent again.
 *
 * <p>Thread-safe: share one across clients; clients over one filter, or over one {@link Polite},
 * share its keys.
 */
public final class PoliteExchangeFilter implements ExchangeFilterFunction, PoliteAdapter {
  private final Polite polite;
  private final Scheduler scheduler;
  private final Executor executor;

  private PoliteExchangeFilter(Polite polite, Scheduler scheduler) {
    this.polite = polite;
    this.scheduler = scheduler;
    this.executor = task -> Schedulers.parallel().schedule(task);
  }

  /**
   * A filter with every default: told nothing about the server.
   *
   * <pre>{@code WebClient.builder().filter(PoliteExchangeFilter.create())}</pre>
   */
  public static PoliteExchangeFilter create() {
    return builder().build();
  }

  /**
   * A filter that carries its exchanges to {@code polite}, sharing its keys with every other
   * adapter over it (a {@link PoliteRequestInterceptor}'s, say).
   *
   * <pre>{@code PoliteExchangeFilter.of(polite)}</pre>
   */
  public static PoliteExchangeFilter of(Polite polite) {
    return new PoliteExchangeFilter(Objects.requireNonNull(polite, "polite"), Scheduler.system());
  }

  /**
   * Starts a configuration; every option has a default.
   *
   * <pre>{@code PoliteExchangeFilter.builder().maxWait(Duration.ofSeconds(10)).build()}</pre>
   */
  public static Builder builder() {
    return new Builder();
  }

  /** The polite caller this filter carries its exchanges to; its keys are this filter's. */
  @Override
  public Polite polite() {
    return polite;
  }

  @Override
  public Mono<ClientResponse> filter(ClientRequest request, ExchangeFunction next) {
    // deferred: a Mono is a recipe, and each subscription is a call of its own
    return Mono.deferContextual(context -> Mono.fromFuture(() -> call(request, next, context), false));
  }

  /** One call: polite's run of its attempts, each the next filter's exchange in {@code context}. */
  private CompletableFuture<ClientResponse> call(ClientRequest request, ExchangeFunction next,
      ContextView context) {
    SpringRequestView view = new SpringRequestView(request.method().name(), request.url(), request.headers(),
        request.attributes(), request);
    return polite.callAsync(view, Long.MAX_VALUE, new AsyncExchange<>() {
      @Override
      public CompletableFuture<ClientResponse> send(Exchange.Judge judge) {
        // toFuture's future cancels its subscription when cancelled: the attempt on the wire ends
        return next.exchange(request)
            .doOnNext(response -> judge.keep(SpringResponseView.of(response.statusCode().value(),
                response.headers().asHttpHeaders(), response)))
            .contextWrite(context)
            .toFuture();
      }

      @Override
      public void discard(ClientResponse response) {
        response.releaseBody().subscribe(); // frees the connection; nothing to wait for
      }
    }, scheduler, executor);
  }

  @Override
  public String toString() {
    return "PoliteExchangeFilter{" + polite.config() + '}';
  }

  /**
   * Configures a filter: every option of {@link PoliteBuilder}, and the scheduler its calls wait
   * on. Not thread-safe; the filter it builds is.
   *
   * <pre>{@code
   * PoliteExchangeFilter polite = PoliteExchangeFilter.builder()
   *     .key(RateLimitKey.header("X-Api-Key"))
   *     .maxWait(Duration.ofSeconds(10))
   *     .build();
   * }</pre>
   */
  public static final class Builder extends PoliteBuilder<Builder> {
    private Scheduler scheduler = Scheduler.system();

    private Builder() {}

    /**
     * What runs a call's next step when its wait ends; it must read polite's ticker. Default
     * {@link Scheduler#system()}; tests pass one on a fake clock.
     */
    public Builder scheduler(Scheduler scheduler) {
      this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
      return this;
    }

    /** The filter; each has its own keys, and its own copy of this configuration. */
    public PoliteExchangeFilter build() {
      return new PoliteExchangeFilter(buildPolite(), scheduler);
    }
  }
}
