package dev.polite;

import dev.failsafe.RetryPolicy;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.ToDoubleFunction;
import java.util.random.RandomGenerator;

/**
 * The options of a polite caller, one set for every engine: each engine's builder
 * ({@code PoliteInterceptor.builder()}, {@code PoliteHttpClient.builder(client)},
 * {@link Polite#builder()}) is one of these, and adds only what its engine needs. Each setter
 * validates its argument and names it when it refuses. Not thread-safe; what it builds is.
 *
 * <pre>{@code
 * PoliteInterceptor polite = PoliteInterceptor.builder()
 *     .key(RateLimitKey.header("X-Api-Key"))
 *     .maxAttempts(5)
 *     .build();
 * }</pre>
 *
 * @param <B> the engine's builder, which every setter returns
 */
public abstract class PoliteBuilder<B extends PoliteBuilder<B>> {
  private final PoliteConfig draft;

  /** A builder with every default. */
  protected PoliteBuilder() {
    this.draft = new PoliteConfig();
  }

  /** A builder holding a copy of {@code config}, to derive another polite (with fresh keys). */
  protected PoliteBuilder(PoliteConfig config) {
    this.draft = new PoliteConfig(Objects.requireNonNull(config, "config"));
  }

  @SuppressWarnings("unchecked")
  private B self() {
    return (B) this;
  }

  /**
   * Reads a vendor's rate-limit headers that polite does not know, after the built-in dialects.
   * Default: the built-in dialects only.
   *
   * <pre>{@code builder.addDialect(new AcmeDialect())}</pre>
   */
  public B addDialect(RateLimitDialect dialect) {
    Objects.requireNonNull(dialect, "dialect");
    List<RateLimitDialect> more = new ArrayList<>(draft.dialects);
    more.add(dialect);
    draft.dialects = List.copyOf(more);
    return self();
  }

  /**
   * Whether to look into the JSON body of a rate-limit rejection for a retry hint (Discord's
   * {@code retry_after}, Matrix's {@code retry_after_ms}): the first 16 KiB are peeked, and the
   * body stays readable. The key learns from the headers first, so a body slow to come holds no
   * other call back; the peek waits at most a second for it (a body still coming then is cut
   * off, and fails to read as on a read time-out). An engine that reads a body only once (the
   * JDK client) reads headers only. Default false: headers only.
   */
  public B readRetryHintsFromBody(boolean readBodies) {
    draft.readRetryHintsFromBody = readBodies;
    return self();
  }

  /** What a request counts against. Default {@link RateLimitKey#host()}. */
  public B key(RateLimitKey key) {
    draft.key = Objects.requireNonNull(key, "key");
    return self();
  }

  /**
   * What a request costs, in the units of its key's budget; must answer a positive finite
   * number. Default {@link RequestCost#of(RequestView)}: the request's {@link RequestCost}, or 1. A call for which
   * it answers anything else (zero, a negative number, NaN, an infinity) or throws fails with
   * an {@link IOException} naming its key and the answer, before it is sent or takes anything
   * from its key.
   */
  public B cost(ToDoubleFunction<RequestView> cost) {
    draft.cost = Objects.requireNonNull(cost, "cost");
    return self();
  }

  /**
   * A pace for every key before its server says anything, in requests per second. Default:
   * none (unlimited until learned). The server's advertised rate replaces it.
   */
  public B startingRate(double requestsPerSecond) {
    if (!(requestsPerSecond > 0)) {
      throw new IllegalArgumentException("startingRate must be positive: " + requestsPerSecond);
    }
    draft.startingRate = requestsPerSecond;
    return self();
  }

  /** The burst of the starting pace: how many calls may go at once. Default 1. */
  public B startingBurst(double calls) {
    if (!(calls >= 1) || Double.isInfinite(calls)) {
      throw new IllegalArgumentException("startingBurst must be at least 1 and finite: " + calls);
    }
    draft.startingBurst = calls;
    return self();
  }

  /**
   * Whether a key lets only one call be in flight until its first answer, so that a burst of
   * first calls cannot blow through a limit nobody has seen yet. Default true.
   */
  public B cautiousStart(boolean cautiousStart) {
    draft.cautiousStart = cautiousStart;
    return self();
  }

  /** Discovers a pace for keys whose servers advertise none. Default {@link Aimd#defaults()}. */
  public B rateController(RateController.Factory rateController) {
    draft.rateController = Objects.requireNonNull(rateController, "rateController");
    return self();
  }

  /**
   * Attempts in all while they fail (502, 503, 504, I/O errors), the first included; 1 turns
   * those retries off. Rate-limit refusals are counted apart ({@link #maxRateLimitRetries}).
   * Default 4.
   *
   * <pre>{@code builder.maxAttempts(1)   // never repeat a call that failed}</pre>
   */
  public B maxAttempts(int maxAttempts) {
    if (maxAttempts < 1) {
      throw new IllegalArgumentException("maxAttempts must be at least 1: " + maxAttempts);
    }
    draft.maxAttempts = maxAttempts;
    return self();
  }

  /**
   * Shapes the retries of failures with Failsafe's own {@link RetryPolicy}, instead of
   * {@link #maxAttempts} and polite's backoff: the outcomes it handles ({@code handle},
   * {@code handleResultIf}) are the failures retried, and its attempts, max duration, aborts,
   * delay, backoff and jitter apply. polite keeps its own rules around it: a request that is
   * not safe to repeat is never resent after an I/O error or a 5xx other than 503, the server's
   * {@code Stripe-Should-Retry: false} ends the call, a delay the server named is honoured
   * (never sooner), and the key's retry budget, the max wait and the call's timeout still bound
   * the retries. Rate-limit refusals are not failures ({@link #maxRateLimitRetries}). Default:
   * polite's own policy (502, 503, 504, I/O errors; 4 attempts; full-jitter backoff).
   *
   * <pre>{@code
   * builder.failureRetries(RetryPolicy.<ResponseView>builder()
   *     .handle(IOException.class)
   *     .handleResultIf(r -> r.status() >= 500)
   *     .withMaxAttempts(6)
   *     .withBackoff(Duration.ofMillis(200), Duration.ofSeconds(10))
   *     .build())
   * }</pre>
   */
  public B failureRetries(RetryPolicy<ResponseView> policy) {
    draft.failureRetries = Objects.requireNonNull(policy, "policy");
    return self();
  }

  /**
   * Retries per call after rate-limit refusals (429, a 403 reporting a spent quota); 0 turns
   * them off. A refusal is retried only when the wait it needs fits the max wait and the call's
   * deadline, and it spends nothing from the retry budget: against a server that is merely
   * limiting, the pace and that wait bound the load. Default 10.
   *
   * <pre>{@code builder.maxRateLimitRetries(0)   // hand every 429 back at once}</pre>
   */
  public B maxRateLimitRetries(int retries) {
    if (retries < 0) {
      throw new IllegalArgumentException("maxRateLimitRetries must not be negative: " + retries);
    }
    draft.maxRateLimitRetries = retries;
    return self();
  }

  /**
   * The backoff: the first retry's ceiling when the server named no delay, doubling per
   * attempt up to {@code cap}. Defaults 500 ms and 30 s.
   */
  public B backoff(Duration base, Duration cap) {
    if (base.isNegative() || base.isZero()) {
      throw new IllegalArgumentException("backoff base must be positive: " + base);
    }
    if (cap.compareTo(base) < 0) {
      throw new IllegalArgumentException("backoff cap must be at least the base: " + cap);
    }
    draft.backoffBase = base;
    draft.backoffCap = cap;
    return self();
  }

  /**
   * The retry budget per key (gRPC retry throttling): retries spend tokens, successes earn
   * {@code tokenRatio} back, and no retry is made at or below half of {@code maxTokens}.
   * Defaults 10 and 0.1.
   */
  public B retryBudget(double maxTokens, double tokenRatio) {
    if (!(maxTokens > 0 && maxTokens <= 1000)) {
      throw new IllegalArgumentException("retryBudget maxTokens must be in (0, 1000]: " + maxTokens);
    }
    if (!(tokenRatio > 0) || Double.isInfinite(tokenRatio)) {
      throw new IllegalArgumentException("retryBudget tokenRatio must be positive: " + tokenRatio);
    }
    draft.retryBudgetTokens = maxTokens;
    draft.retryBudgetRatio = tokenRatio;
    return self();
  }

  /**
   * The most time polite adds to one call in all, waiting for its pace, a pause or a retry.
   * A wait that would exceed it, or the call's own timeout, is not begun. Default 60 s.
   */
  public B maxWait(Duration maxWait) {
    if (maxWait.isNegative()) {
      throw new IllegalArgumentException("maxWait must not be negative: " + maxWait);
    }
    draft.maxWait = maxWait;
    return self();
  }

  /**
   * Whether giving up on a rate-limit rejection throws {@link RateLimitedException} (true) or
   * returns the rejection as it came (false, the default).
   */
  public B throwWhenRateLimited(boolean throwWhenRateLimited) {
    draft.throwWhenRateLimited = throwWhenRateLimited;
    return self();
  }

  /**
   * Adds a listener that hears what polite does; each hears every event, in the order added.
   * Default: nothing hears.
   *
   * <pre>{@code builder.addListener(metrics).addListener(auditLog)}</pre>
   */
  public B addListener(PoliteListener listener) {
    Objects.requireNonNull(listener, "listener");
    List<PoliteListener> more = new ArrayList<>(draft.listeners);
    more.add(listener);
    draft.listeners = List.copyOf(more);
    return self();
  }

  /** The most keys remembered; idle ones are forgotten past it. Default 10,000. */
  public B maxKeys(int maxKeys) {
    if (maxKeys < 1) {
      throw new IllegalArgumentException("maxKeys must be at least 1: " + maxKeys);
    }
    draft.maxKeys = maxKeys;
    return self();
  }

  /**
   * Shares each key's budget with every other instance on the same shared state: its pace,
   * tokens, pause and the server's remaining count (see {@link SharedState}). Default
   * {@link SharedState#none()}: this instance alone.
   *
   * <pre>{@code builder.sharedState(RedisSharedState.connect("redis://redis:6379"))}</pre>
   */
  public B sharedState(SharedState sharedState) {
    draft.sharedState = Objects.requireNonNull(sharedState, "sharedState");
    return self();
  }

  /**
   * Drops calls on the client before polite waits for them, while the server is overloaded
   * (sdk-adaptive's {@code AdaptiveThrottle}); a dropped call fails at once with the shedder's
   * {@link java.io.IOException}, never sent. It hears each call's end once, by its final answer,
   * after polite's retries. Default {@link LoadShedder#none()}.
   *
   * <pre>{@code builder.loadShedder(AdaptiveThrottle.create())}</pre>
   */
  public B loadShedder(LoadShedder loadShedder) {
    draft.loadShedder = Objects.requireNonNull(loadShedder, "loadShedder");
    return self();
  }

  /** The clock polite reads and sleeps on; tests pass a fake. Default the system's. */
  public B clock(Ticker ticker, Sleeper sleeper) {
    draft.ticker = Objects.requireNonNull(ticker, "ticker");
    draft.sleeper = Objects.requireNonNull(sleeper, "sleeper");
    return self();
  }

  /** The calendar clock, for server dates when a response has no Date. Default the system's. */
  public B wallClock(WallClock wallClock) {
    draft.wallClock = Objects.requireNonNull(wallClock, "wallClock");
    return self();
  }

  /** The jitter's source of randomness; tests pass a seeded one. Default per-thread random. */
  public B random(RandomGenerator random) {
    draft.random = Objects.requireNonNull(random, "random");
    return self();
  }

  /**
   * Observation mode: polite learns every key as usual, and tells its listeners what it would
   * have done ({@link PoliteListener#wouldWait}, {@link PoliteListener#wouldRetry},
   * {@link PoliteListener#wouldGiveUp}) and logs each key's changes of what it would do, once
   * per change; but it sends every call at once, never retries, and returns every answer (and
   * throws every failure) as it came. The way a limit is rolled out: observe for a while, read
   * the meters, then enforce. Each instance observes alone: not with a
   * {@link #sharedState}, whose other instances would be held by pauses that this one only
   * pretends to keep. Default false: polite enforces.
   *
   * <pre>{@code builder.observeOnly(true).addListener(metrics)   // a week in production, then enforce}</pre>
   */
  public B observeOnly(boolean observeOnly) {
    draft.observeOnly = observeOnly;
    return self();
  }

  /**
   * A polite caller with this configuration, and keys of its own: what the engine's
   * {@code build()} wraps.
   *
   * @throws IllegalStateException when options contradict each other (a starting burst without a
   *     starting rate; observation mode with a shared state)
   */
  protected final Polite buildPolite() {
    if (draft.startingBurst > 1 && Double.isInfinite(draft.startingRate)) {
      throw new IllegalStateException("startingBurst needs a startingRate");
    }
    if (draft.observeOnly && draft.sharedState != SharedState.none()) {
      throw new IllegalStateException("observeOnly cannot share keys with a fleet ("
          + draft.sharedState + "): observe each instance alone, and share once it enforces");
    }
    return new Polite(new PoliteConfig(draft));
  }

  @Override
  public String toString() {
    return draft.toString();
  }
}
