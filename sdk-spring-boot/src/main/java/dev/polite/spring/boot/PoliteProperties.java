package dev.polite.spring.boot;

import dev.polite.Polite;
import dev.polite.PoliteBuilder;
import dev.polite.PoliteConfig;
import dev.polite.RateLimitKey;
import java.time.Duration;
import java.util.Locale;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;

/**
 * The {@code polite.*} properties: the options of {@link PoliteBuilder} that a property can hold,
 * each named as the builder names it, with the builder's defaults ({@link PoliteConfig}'s).
 *
 * <pre>{@code
 * polite.max-wait=10s
 * polite.key=header:X-Api-Key
 * polite.starting-rate=5
 * }</pre>
 *
 * <h2>Why the builder validates, not this class</h2>
 * Each value goes through the builder's own setter ({@link #applyTo}), which knows what it accepts
 * and why; a refusal there becomes an {@link InvalidConfigurationPropertyValueException} naming the
 * property, the value and the setter's reason, which Boot's failure analyzer prints at start-up. A
 * value Boot cannot even convert ({@code polite.max-wait=soon}) fails earlier, in Boot's binding,
 * naming the property too. So there is one set of rules, the builder's, and no copy here to drift.
 *
 * <p>Options that take code (a key function, a cost function, dialects, a rate controller, a
 * Failsafe policy, a shared state, a load shedder, the clock) have no property: set them in a
 * {@link PoliteCustomizer}.
 */
@ConfigurationProperties(PoliteProperties.PREFIX)
public final class PoliteProperties {
  /** The prefix of every property: {@value}. */
  public static final String PREFIX = "polite";

  /**
   * Whether polite is put on the clients Boot builds. False turns the whole starter off: no
   * polite bean, no customizers, no meters, no endpoint.
   */
  private boolean enabled = true;

  /**
   * The most time polite adds to one call in all, waiting for its pace, a pause or a retry; a
   * wait that would exceed it is not begun.
   */
  private Duration maxWait = Duration.ofSeconds(60);

  /**
   * What a request counts against: 'host' (scheme, host and port: one limit per server), 'route'
   * (origin plus path: one limit per endpoint), or 'header:NAME' (origin plus a digest of that
   * header's value, an API key or a tenant: one limit per credential per server).
   */
  private String key = "host";

  /**
   * A pace for every key before its server says anything, in requests per second. Unset: none
   * (unlimited until learned). The server's advertised rate replaces it.
   */
  private @Nullable Double startingRate;

  /** The burst of the starting pace: how many calls may go at once. Needs a starting rate when above 1. */
  private double startingBurst = 1;

  /**
   * Whether a key lets only one call be in flight until its first answer, so that a burst of
   * first calls cannot blow through a limit nobody has seen yet.
   */
  private boolean cautiousStart = true;

  /**
   * Attempts in all while they fail (502, 503, 504, I/O errors), the first included; 1 turns
   * those retries off. Rate-limit refusals are counted apart (max-rate-limit-retries).
   */
  private int maxAttempts = 4;

  /**
   * Retries per call after rate-limit refusals (429, a 403 reporting a spent quota); 0 turns them
   * off. A refusal is retried only when the wait it needs fits the max wait.
   */
  private int maxRateLimitRetries = 10;

  /** Whether giving up on a rate-limit refusal throws RateLimitedException (true) or returns the refusal as it came (false). */
  private boolean throwWhenRateLimited;

  /**
   * Observation mode: polite learns every key and reports what it would have done (meters, log),
   * but sends every call at once, never retries, and returns every answer as it came. The way a
   * limit is rolled out.
   */
  private boolean observeOnly;

  /** The most keys remembered; idle ones are forgotten past it. */
  private int maxKeys = 10_000;

  /**
   * Whether to look into the JSON body of a rate-limit refusal for a retry hint (Discord's
   * retry_after, Matrix's retry_after_ms); the body stays readable.
   */
  private boolean readRetryHintsFromBody;

  private final Backoff backoff = new Backoff();

  private final RetryBudget retryBudget = new RetryBudget();

  private final Metrics metrics = new Metrics();

  public boolean isEnabled() {
    return enabled;
  }

  public void setEnabled(boolean enabled) {
    this.enabled = enabled;
  }

  public Duration getMaxWait() {
    return maxWait;
  }

  public void setMaxWait(Duration maxWait) {
    this.maxWait = maxWait;
  }

  public String getKey() {
    return key;
  }

  public void setKey(String key) {
    this.key = key;
  }

  public @Nullable Double getStartingRate() {
    return startingRate;
  }

  public void setStartingRate(@Nullable Double startingRate) {
    this.startingRate = startingRate;
  }

  public double getStartingBurst() {
    return startingBurst;
  }

  public void setStartingBurst(double startingBurst) {
    this.startingBurst = startingBurst;
  }

  public boolean isCautiousStart() {
    return cautiousStart;
  }

  public void setCautiousStart(boolean cautiousStart) {
    this.cautiousStart = cautiousStart;
  }

  public int getMaxAttempts() {
    return maxAttempts;
  }

  public void setMaxAttempts(int maxAttempts) {
    this.maxAttempts = maxAttempts;
  }

  public int getMaxRateLimitRetries() {
    return maxRateLimitRetries;
  }

  public void setMaxRateLimitRetries(int maxRateLimitRetries) {
    this.maxRateLimitRetries = maxRateLimitRetries;
  }

  public boolean isThrowWhenRateLimited() {
    return throwWhenRateLimited;
  }

  public void setThrowWhenRateLimited(boolean throwWhenRateLimited) {
    this.throwWhenRateLimited = throwWhenRateLimited;
  }

  public boolean isObserveOnly() {
    return observeOnly;
  }

  public void setObserveOnly(boolean observeOnly) {
    this.observeOnly = observeOnly;
  }

  public int getMaxKeys() {
    return maxKeys;
  }

  public void setMaxKeys(int maxKeys) {
    this.maxKeys = maxKeys;
  }

  public boolean isReadRetryHintsFromBody() {
    return readRetryHintsFromBody;
  }

  public void setReadRetryHintsFromBody(boolean readRetryHintsFromBody) {
    this.readRetryHintsFromBody = readRetryHintsFromBody;
  }

  /** The backoff when the server named no delay ({@code polite.backoff.*}). */
  public Backoff getBackoff() {
    return backoff;
  }

  /** The retry budget per key ({@code polite.retry-budget.*}). */
  public RetryBudget getRetryBudget() {
    return retryBudget;
  }

  /** The meters ({@code polite.metrics.*}). */
  public Metrics getMetrics() {
    return metrics;
  }

  /**
   * Sets every property on {@code builder}, through the builder's own setters.
   *
   * @throws InvalidConfigurationPropertyValueException naming the first property the builder
   *     refuses, with the builder's reason
   */
  void applyTo(Polite.Builder builder) {
    set("max-wait", maxWait, builder::maxWait);
    set("key", key, value -> builder.key(keyOf(value)));
    if (startingRate != null) {
      set("starting-rate", startingRate, builder::startingRate);
    }
    set("starting-burst", startingBurst, builder::startingBurst);
    builder.cautiousStart(cautiousStart);
    set("max-attempts", maxAttempts, builder::maxAttempts);
    set("max-rate-limit-retries", maxRateLimitRetries, builder::maxRateLimitRetries);
    // Each pair's first value is tried with a partner the builder always accepts, so that a refusal
    // names the property at fault without reading the builder's message.
    set("backoff.base", backoff.base, base -> builder.backoff(base, base));
    set("backoff.cap", backoff.cap, cap -> builder.backoff(backoff.base, cap));
    set("retry-budget.max-tokens", retryBudget.maxTokens,
        tokens -> builder.retryBudget(tokens, RetryBudget.DEFAULT_TOKEN_RATIO));
    set("retry-budget.token-ratio", retryBudget.tokenRatio,
        ratio -> builder.retryBudget(retryBudget.maxTokens, ratio));
    builder.throwWhenRateLimited(throwWhenRateLimited);
    builder.observeOnly(observeOnly);
    set("max-keys", maxKeys, builder::maxKeys);
    builder.readRetryHintsFromBody(readRetryHintsFromBody);
  }

  /**
   * The property that explains {@code builder}'s refusal to build ({@link IllegalStateException}:
   * options that contradict each other), in the order the builder checks them, or the refusal
   * itself when no property explains it (a customizer's choices).
   */
  RuntimeException explain(IllegalStateException refusal) {
    if (startingBurst > 1 && startingRate == null) {
      return invalid("starting-burst", startingBurst,
          "a burst of the starting pace needs " + PREFIX + ".starting-rate (" + refusal.getMessage() + ")");
    }
    if (observeOnly) {
      return invalid("observe-only", true, String.valueOf(refusal.getMessage()));
    }
    return refusal;
  }

  /**
   * The key function {@code value} names: {@code host}, {@code route} or {@code header:NAME}, in
   * any case.
   */
  static RateLimitKey keyOf(String value) {
    String trimmed = value.trim();
    String lower = trimmed.toLowerCase(Locale.ROOT);
    if (lower.equals("host")) {
      return RateLimitKey.host();
    }
    if (lower.equals("route")) {
      return RateLimitKey.route();
    }
    if (lower.startsWith("header:") && !trimmed.substring("header:".length()).isBlank()) {
      return RateLimitKey.header(trimmed.substring("header:".length()).trim());
    }
    throw new IllegalArgumentException("key must be host, route or header:NAME (header:X-Api-Key, say)");
  }

  /**
   * Hands {@code value} to {@code setter}; a refusal ({@link IllegalArgumentException}) becomes an
   * {@link InvalidConfigurationPropertyValueException} for {@code polite.}{@code name}.
   */
  static <T> void set(String name, T value, Consumer<T> setter) {
    try {
      setter.accept(value);
    } catch (IllegalArgumentException refusal) {
      // The builder's message is the reason; the refusal is not kept as the cause, so the root
      // cause a reader sees first is the one that names the property.
      throw invalid(name, value, String.valueOf(refusal.getMessage()));
    }
  }

  private static InvalidConfigurationPropertyValueException invalid(String name, Object value, String reason) {
    return new InvalidConfigurationPropertyValueException(PREFIX + "." + name, value, reason);
  }

  /** The backoff when the server named no delay: capped exponential, with full jitter. */
  public static final class Backoff {
    /** The first retry's ceiling when the server named no delay; it doubles per attempt up to the cap. */
    private Duration base = Duration.ofMillis(500);

    /** The longest backoff; at least the base. */
    private Duration cap = Duration.ofSeconds(30);

    public Duration getBase() {
      return base;
    }

    public void setBase(Duration base) {
      this.base = base;
    }

    public Duration getCap() {
      return cap;
    }

    public void setCap(Duration cap) {
      this.cap = cap;
    }
  }

  /**
   * The retry budget per key (gRPC's retry throttling): retries spend tokens, successes earn some
   * back, and no retry is made at or below half of the tokens.
   */
  public static final class RetryBudget {
    static final double DEFAULT_TOKEN_RATIO = 0.1;

    /** The budget's size per key, in (0, 1000]. */
    private double maxTokens = 10;

    /** What one success gives back to the budget. */
    private double tokenRatio = DEFAULT_TOKEN_RATIO;

    public double getMaxTokens() {
      return maxTokens;
    }

    public void setMaxTokens(double maxTokens) {
      this.maxTokens = maxTokens;
    }

    public double getTokenRatio() {
      return tokenRatio;
    }

    public void setTokenRatio(double tokenRatio) {
      this.tokenRatio = tokenRatio;
    }
  }

  /** polite's Micrometer meters, made when a MeterRegistry is there. */
  public static final class Metrics {
    /**
     * How many keys have their own 'key' tag; every other key is counted under key="other",
     * so that a key function with many values cannot flood the monitoring system. 0 drops the tag.
     */
    private int maxKeyTags = 100; // PoliteMetrics.DEFAULT_MAX_KEY_TAGS, written out for the metadata

    public int getMaxKeyTags() {
      return maxKeyTags;
    }

    public void setMaxKeyTags(int maxKeyTags) {
      this.maxKeyTags = maxKeyTags;
    }
  }
}
