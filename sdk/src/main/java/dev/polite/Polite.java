package dev.polite;

import dev.polite.internal.call.KeyState;
import dev.polite.internal.call.KeyStates;
import dev.polite.internal.Nanos;
import dev.polite.internal.retry.RetryRules;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.BooleanSupplier;
import org.jspecify.annotations.Nullable;

/**
 * A polite caller of rate-limited APIs, on no engine in particular: it paces calls per key, learns
 * each key's limit from the server's answers, pauses a key the server asked to wait, and retries
 * what is safe to retry, never sooner than the server asked. Each HTTP engine's adapter wraps one
 * (OkHttp's {@code PoliteInterceptor}, the JDK client's {@code PoliteHttpClient}, ...) and only
 * carries: it shows polite each request and answer, and waits the engine's way. Adapters over one
 * {@code Polite} share its keys.
 *
 * <pre>{@code
 * Polite polite = Polite.builder().maxWait(Duration.ofSeconds(10)).build();
 * OkHttpClient ok = new OkHttpClient.Builder().addInterceptor(PoliteInterceptor.of(polite)).build();
 * HttpClient jdk = PoliteHttpClient.wrap(HttpClient.newHttpClient(), polite);   // the same keys
 * }</pre>
 *
 * <h2>The request path, on every engine</h2>
 * <ol>
 *   <li>The key function names the limit the request counts against (scheme, host and port by
 *       default) and the cost function its cost (1, or a {@link RequestCost} hint).
 *   <li>The call waits for permission: past the key's pause, through its gate (one call in flight
 *       until the key's first answer, and while probing after a rejection), and for its tokens.
 *   <li>It is sent; the answer's status and rate-limit headers, in any dialect polite reads,
 *       update the key before any of its body is read: an advertised {@code quota / window}
 *       becomes its pace, the remaining count resets its tokens, a spent quota or a Retry-After
 *       pauses it. A key whose server advertises nothing discovers a pace from its refusals
 *       ({@link Aimd} by default).
 *   <li>A retryable failure is retried after the server's delay plus jitter, or after capped
 *       exponential backoff with full jitter, within the attempts, the key's retry budget, the
 *       max wait and the call's timeout; an answer polite retries is discarded unread. Each retry
 *       is paced like a first attempt.
 *   <li>Giving up returns the last answer untouched, or throws {@link RateLimitedException} for
 *       a rate-limit refusal when {@link PoliteBuilder#throwWhenRateLimited} is set. A call that
 *       cannot even be sent in time throws {@link RateLimitedException} at once, without waiting.
 * </ol>
 *
 * <h2>For adapters</h2>
 * {@link #call} runs a call blocking (the calling thread waits) and {@link #callAsync} without
 * holding a thread (its waits are tasks on a {@link Scheduler}); both take the same steps, so a
 * call paces, pauses and retries alike on either. The engine sends each attempt through an
 * {@link Exchange} or {@link AsyncExchange}.
 *
 * <p>Thread-safe: share one across threads and clients.
 */
public final class Polite {
  private final PoliteConfig config;
  private final KeyStates keys;
  private final RetryRules retryRules;
  private final RateLimitHeaders headers;

  Polite(PoliteConfig config) {
    this.config = config;
    this.keys = new KeyStates(config);
    this.retryRules = new RetryRules(config);
    RateLimitHeaders parser = RateLimitHeaders.standard();
    for (RateLimitDialect dialect : config.dialects()) {
      parser = parser.with(dialect);
    }
    this.headers = parser;
  }

  /**
   * A polite caller with every default: told nothing about the server.
   *
   * <pre>{@code Polite polite = Polite.create();}</pre>
   */
  public static Polite create() {
    return builder().build();
  }

  /**
   * Starts a configuration; every option has a default (see the README's reference).
   *
   * <pre>{@code Polite.builder().maxWait(Duration.ofSeconds(10)).build()}</pre>
   */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder holding this caller's configuration, to derive another (with fresh keys). */
  public Builder toBuilder() {
    return new Builder(config);
  }

  /**
   * This caller's configuration, read-only.
   *
   * <pre>{@code Duration patience = polite.config().maxWait();}</pre>
   */
  public PoliteConfig config() {
    return config;
  }

  /**
   * What this caller knows about {@code key} now, if it holds the key.
   *
   * <pre>{@code polite.snapshot("https://api.github.com:443").map(KeySnapshot::pace)}</pre>
   */
  public Optional<KeySnapshot> snapshot(String key) {
    KeyState state = keys.find(key);
    return state == null ? Optional.empty() : Optional.of(state.snapshot());
  }

  /**
   * What this caller knows about every key it holds now, in no particular order.
   *
   * <pre>{@code polite.snapshots().forEach(k -> System.out.println(k.key() + " " + k.pace()))}</pre>
   */
  public List<KeySnapshot> snapshots() {
    List<KeySnapshot> all = new ArrayList<>();
    for (KeyState state : keys.all()) {
      all.add(state.snapshot());
    }
    return all;
  }

  /**
   * Runs one call to its end on the calling thread, which waits for the call's turn and between
   * its attempts: for an engine's blocking path.
   *
   * <pre>{@code Response r = polite.call(view, timeoutNanos, call::isCanceled, exchange);}</pre>
   *
   * @param request the call's request, as polite reads it
   * @param timeoutNanos how long the call may take in all, waits and attempts together, from now;
   *     {@link Long#MAX_VALUE} for no limit
   * @param canceled whether the caller gave the call up; every wait polls it
   * @param exchange how the engine sends one attempt
   * @return the answer to hand the caller
   * @throws RateLimitedException when the call cannot be sent in time, or polite gave up on a
   *     refusal and was asked to throw
   * @throws java.io.InterruptedIOException when the call was cancelled or the thread interrupted
   *     while waiting (the interrupt is kept)
   * @throws IOException what the last attempt failed with, or a key or cost function's failure
   */
  public <R> R call(RequestView request, long timeoutNanos, BooleanSupplier canceled,
      Exchange<R> exchange) throws IOException {
    CallContext call = contextOf(request);
    long now = config.ticker().read();
    return new CallRun(this, call, canceled, deadline(now, timeoutNanos)).block(exchange);
  }

  /**
   * Starts one call that holds no thread while it waits: its waits are tasks on
   * {@code scheduler}, and each attempt goes to the engine only when its turn has come. The
   * future completes with the answer to hand the caller, or exceptionally with what
   * {@link #call} would throw; cancelling it ends the call's wait at once (or cancels the attempt
   * on the wire), and the call gives its place back.
   *
   * <pre>{@code CompletableFuture<HttpResponse<T>> f = polite.callAsync(view, timeout, exchange, Scheduler.system(), executor);}</pre>
   *
   * @param timeoutNanos as {@link #call}'s
   * @param scheduler what runs the call's next step when a wait ends; it must read polite's ticker
   * @param executor where the future completes when no attempt completes it (a call refused or
   *     cancelled while it waits), so that the caller's code never runs on the scheduler's thread;
   *     an attempt's answer completes it on the thread the engine completed the attempt on
   */
  public <R> CompletableFuture<R> callAsync(RequestView request, long timeoutNanos,
      AsyncExchange<R> exchange, Scheduler scheduler, Executor executor) {
    Objects.requireNonNull(exchange, "exchange");
    Objects.requireNonNull(scheduler, "scheduler");
    Objects.requireNonNull(executor, "executor");
    CallContext call;
    try {
      call = contextOf(request);
    } catch (IOException badKeyOrCost) {
      return CompletableFuture.failedFuture(badKeyOrCost);
    }
    long now = config.ticker().read();
    AsyncRun<R> run = new AsyncRun<>(this, call, deadline(now, timeoutNanos), exchange,
        scheduler, executor);
    return run.start();
  }

  /** The ticker time {@code timeoutNanos} after {@code now}; {@link Long#MAX_VALUE} for none. */
  private static long deadline(long now, long timeoutNanos) {
    return timeoutNanos == Long.MAX_VALUE ? Long.MAX_VALUE : Nanos.add(now, Math.max(0, timeoutNanos));
  }

  /**
   * The state of the budget {@code call}'s request spends: its key's own, unless answers to its
   * route named another of the key's budgets ({@link dev.polite.internal.budgets.KeyBudgets}).
   */
  KeyState stateOf(CallContext call) {
    return stateOf(call, keys.get(call.key()));
  }

  /**
   * As {@link #stateOf(CallContext)}, for a call whose state was {@code current}: no lookup while
   * its key keeps one budget, as most do (every attempt asks).
   */
  KeyState stateOf(CallContext call, KeyState current) {
    while (current.isRetired()) {
      current = keys.get(call.key()); // forgotten while the call held it: the key's state now
    }
    KeyState key = current.key().equals(call.key()) ? current : keys.get(call.key());
    String spent = key.budgets().spentBy(call.request(), key::isPaused);
    if (spent.equals(current.key())) {
      return current;
    }
    return spent.equals(key.key()) ? key : keys.get(spent);
  }

  /** The state of the budget an answer to {@code call} with {@code signals} counts against. */
  KeyState ownerOf(KeyState sentThrough, CallContext call, RateLimitSignals signals) {
    String bucket = signals.bucket();
    if (bucket == null && signals.policies().isEmpty()) {
      return sentThrough; // nothing to tell a budget by: no lookup
    }
    KeyState key = sentThrough.key().equals(call.key()) ? sentThrough : keys.get(call.key());
    boolean spent = signals.isRejection() || signals.isQuotaSpent();
    String owner = bucket != null
        ? key.budgets().answeredFor(call.request(), bucket, spent, sentThrough.key())
        : key.budgets().answeredUnnamed(call.request(), signals, spent, sentThrough.key());
    return owner.equals(sentThrough.key()) ? sentThrough : keys.get(owner);
  }

  /**
   * The context of {@code request}.
   *
   * @throws IOException when the key or cost function throws, or answers what a key or cost
   *     cannot be (see {@link #costOf})
   */
  CallContext contextOf(RequestView request) throws IOException {
    String key = keyOf(request);
    RequestCost tag = request.tag(RequestCost.class); // read once per call: the default cost too
    double cost = config.cost() == PoliteConfig.DEFAULT_COST
        ? (tag == null ? 1 : tag.units()) : costOf(request, key);
    return CallContext.of(key, request, cost, tag != null && tag.isReservation() ? tag : null);
  }

  /**
   * The key function's answer for {@code request}: null, or the function throwing, fails this
   * call as an {@link IOException} (as a bad cost does, see {@link #costOf}), never lets a
   * runtime exception out into the engine.
   */
  private String keyOf(RequestView request) throws IOException {
    String key;
    try {
      key = config.key().keyOf(request);
    } catch (RuntimeException e) {
      throw new IOException("polite: not sending " + RequestView.redacted(request)
          + ": the key function threw: " + e, e);
    }
    if (key == null) {
      throw new IOException("polite: not sending " + RequestView.redacted(request)
          + ": the key function answered null");
    }
    return key;
  }

  /**
   * The configured cost function's answer for {@code request}, held to the rule a
   * {@link RequestCost} is built to: positive and finite. Unchecked, NaN would make the call free
   * (every comparison with it is false), a negative cost would give the key's bucket tokens that
   * its other calls then spend, and an infinite one would wait for ever. So a bad answer, or the
   * function throwing, fails this call here, before it takes a permit or makes its key, and
   * leaves every other call as it was: as an {@link IOException}, the kind every engine's callers
   * expect of a call (anything else crashes OkHttp's asynchronous calls), naming the key and the
   * value, with the cause the {@link IllegalArgumentException} a {@link RequestCost} would have
   * thrown (or what the function threw).
   */
  private double costOf(RequestView request, String key) throws IOException {
    double cost;
    try {
      cost = config.cost().applyAsDouble(request);
    } catch (RuntimeException e) {
      throw new IOException("polite: not sending to " + key + ": the cost function threw for "
          + RequestView.redacted(request) + ": " + e, e);
    }
    try {
      RequestCost.checkUnits(cost);
    } catch (IllegalArgumentException e) {
      throw new IOException("polite: not sending to " + key + ": the cost function answered "
          + cost + " for " + RequestView.redacted(request)
          + "; a cost must be positive and finite", e);
    }
    return cost;
  }

  RetryRules retryRules() {
    return retryRules;
  }

  RateLimitHeaders headers() {
    return headers;
  }

  KeyStates keys() {
    return keys;
  }

  @Override
  public String toString() {
    return "Polite{" + config + '}';
  }

  /**
   * Configures a {@link Polite}: every option of {@link PoliteBuilder}. Not thread-safe; the
   * caller it builds is.
   *
   * <pre>{@code Polite polite = Polite.builder().key(RateLimitKey.header("X-Api-Key")).build();}</pre>
   */
  public static final class Builder extends PoliteBuilder<Builder> {
    private Builder() {}

    private Builder(PoliteConfig config) {
      super(config);
    }

    /** The caller; each has its own keys, and its own copy of this configuration. */
    public Polite build() {
      return buildPolite();
    }
  }
}
