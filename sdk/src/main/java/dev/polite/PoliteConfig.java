package dev.polite;

import dev.failsafe.RetryPolicy;
import dev.polite.internal.listening.SafeListener;
import java.time.Duration;
import java.util.List;
import java.util.function.ToDoubleFunction;
import java.util.random.RandomGenerator;
import org.jspecify.annotations.Nullable;

/**
 * A {@link Polite}'s configuration, read-only: what its {@link PoliteBuilder} set, with every
 * default filled in, whichever engine it serves. Each setting is declared once, here; the builder
 * writes a draft of it and its {@code build()} freezes a copy, as Failsafe's policy configs do, so
 * a configuration cannot change under the calls that read it.
 *
 * <pre>{@code
 * Duration patience = interceptor.config().maxWait();
 * }</pre>
 *
 * <p>Immutable once built, and thread-safe.
 */
public final class PoliteConfig {
  // Written only by PoliteBuilder, on its own draft, before the copy that is built.
  RateLimitKey key = RateLimitKey.host();
  ToDoubleFunction<RequestView> cost = DEFAULT_COST;
  double startingRate = Double.POSITIVE_INFINITY;
  double startingBurst = 1;
  boolean cautiousStart = true;
  RateController.Factory rateController = Aimd.defaults();
  int maxAttempts = 4;
  @Nullable RetryPolicy<ResponseView> failureRetries;
  int maxRateLimitRetries = 10;
  Duration backoffBase = Duration.ofMillis(500);
  Duration backoffCap = Duration.ofSeconds(30);
  double retryBudgetTokens = 10;
  double retryBudgetRatio = 0.1;
  Duration maxWait = Duration.ofSeconds(60);
  boolean throwWhenRateLimited;
  List<PoliteListener> listeners = List.of();
  PoliteListener listener = PoliteListener.none(); // derived: the listeners, guarded
  int maxKeys = 10_000;
  Ticker ticker = Ticker.system();
  Sleeper sleeper = Sleeper.system();
  WallClock wallClock = WallClock.system();
  @Nullable RandomGenerator random;
  List<RateLimitDialect> dialects = List.of();
  boolean readRetryHintsFromBody;
  SharedState sharedState = SharedState.none();
  LoadShedder loadShedder = LoadShedder.none();
  boolean observeOnly;

  /** The default cost function: the request's {@link RequestCost} tag, or 1. */
  static final ToDoubleFunction<RequestView> DEFAULT_COST = RequestCost::of;

  PoliteConfig() {}

  /** A copy of {@code c}: every field is immutable or a shared, thread-safe strategy. */
  PoliteConfig(PoliteConfig c) {
    key = c.key;
    cost = c.cost;
    startingRate = c.startingRate;
    startingBurst = c.startingBurst;
    cautiousStart = c.cautiousStart;
    rateController = c.rateController;
    maxAttempts = c.maxAttempts;
    failureRetries = c.failureRetries;
    maxRateLimitRetries = c.maxRateLimitRetries;
    backoffBase = c.backoffBase;
    backoffCap = c.backoffCap;
    retryBudgetTokens = c.retryBudgetTokens;
    retryBudgetRatio = c.retryBudgetRatio;
    maxWait = c.maxWait;
    throwWhenRateLimited = c.throwWhenRateLimited;
    listeners = c.listeners;
    listener = SafeListener.of(listeners);
    maxKeys = c.maxKeys;
    ticker = c.ticker;
    sleeper = c.sleeper;
    wallClock = c.wallClock;
    random = c.random;
    dialects = c.dialects;
    readRetryHintsFromBody = c.readRetryHintsFromBody;
    sharedState = c.sharedState;
    loadShedder = c.loadShedder;
    observeOnly = c.observeOnly;
  }

  /** What a request counts against. */
  public RateLimitKey key() {
    return key;
  }

  /** What a request costs, in the units of its key's budget. */
  public ToDoubleFunction<RequestView> cost() {
    return cost;
  }

  /** Requests per second before a server says anything; infinite for no pace. */
  public double startingRate() {
    return startingRate;
  }

  /** The starting pace's burst. */
  public double startingBurst() {
    return startingBurst;
  }

  /** Whether a new key admits one call at a time until the server says something. */
  public boolean cautiousStart() {
    return cautiousStart;
  }

  /** What discovers a pace for keys whose servers advertise none. */
  public RateController.Factory rateController() {
    return rateController;
  }

  /** Attempts in all while they fail, the first included. */
  public int maxAttempts() {
    return maxAttempts;
  }

  /**
   * The user's Failsafe policy for failures, replacing {@link #maxAttempts()} and polite's
   * backoff for them; {@code null} for polite's own.
   */
  public @Nullable RetryPolicy<ResponseView> failureRetries() {
    return failureRetries;
  }

  /** Retries per call after rate-limit refusals. */
  public int maxRateLimitRetries() {
    return maxRateLimitRetries;
  }

  /** The first backoff when the server named no delay, doubling up to {@link #backoffCap()}. */
  public Duration backoffBase() {
    return backoffBase;
  }

  /** The longest backoff. */
  public Duration backoffCap() {
    return backoffCap;
  }

  /** The retry budget's size, per key. */
  public double retryBudgetTokens() {
    return retryBudgetTokens;
  }

  /** What one success gives back to the retry budget. */
  public double retryBudgetRatio() {
    return retryBudgetRatio;
  }

  /** The most time polite adds to one call in all. */
  public Duration maxWait() {
    return maxWait;
  }

  /** Whether giving up on a rate-limit rejection throws {@link RateLimitedException}. */
  public boolean throwWhenRateLimited() {
    return throwWhenRateLimited;
  }

  /** The listeners, in the order they hear each event. */
  public List<PoliteListener> listeners() {
    return listeners;
  }

  /**
   * Every listener as one, guarded: what one throws is logged, never fails a call, and does not
   * keep the others from hearing.
   */
  public PoliteListener listener() {
    return listener;
  }

  /** The most keys remembered. */
  public int maxKeys() {
    return maxKeys;
  }

  /** The monotonic clock polite reads. */
  public Ticker ticker() {
    return ticker;
  }

  /** What polite sleeps on. */
  public Sleeper sleeper() {
    return sleeper;
  }

  /** The calendar clock, for responses without a {@code Date}. */
  public WallClock wallClock() {
    return wallClock;
  }

  /** The jitter's source; {@code null} for a per-thread random. */
  public @Nullable RandomGenerator random() {
    return random;
  }

  /** The user's dialects, read after the built-in ones. */
  public List<RateLimitDialect> dialects() {
    return dialects;
  }

  /** Where a fleet of instances shares each key's budget; {@link SharedState#none()} when alone. */
  public SharedState sharedState() {
    return sharedState;
  }

  /** What may drop a call on the client before polite waits; {@link LoadShedder#none()} for none. */
  public LoadShedder loadShedder() {
    return loadShedder;
  }

  /** Whether rejections' JSON bodies are read for a retry hint. */
  public boolean readRetryHintsFromBody() {
    return readRetryHintsFromBody;
  }

  /**
   * Whether polite only observes: it learns as usual and reports what it would have done, but
   * sends every call at once and returns every answer untouched.
   */
  public boolean observeOnly() {
    return observeOnly;
  }

  @Override
  public String toString() {
    return (failureRetries == null ? "maxAttempts=" + maxAttempts : "failureRetries=" + failureRetries)
        + " maxRateLimitRetries=" + maxRateLimitRetries
        + " backoff=" + backoffBase + ".." + backoffCap
        + " maxWait=" + maxWait + " budget=" + retryBudgetTokens + "/" + retryBudgetRatio
        + " cautiousStart=" + cautiousStart + " controller=" + rateController
        + (Double.isInfinite(startingRate) ? "" : " startingRate=" + startingRate + " burst=" + startingBurst)
        + (sharedState == SharedState.none() ? "" : " sharedState=" + sharedState)
        + (loadShedder == LoadShedder.none() ? "" : " loadShedder=" + loadShedder)
        + (observeOnly ? " observeOnly" : "");
  }
}
