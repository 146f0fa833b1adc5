package dev.polite;

import java.time.Duration;
import java.util.Objects;
import java.util.OptionalLong;
import org.jspecify.annotations.Nullable;

/**
 * One quota a server reported: "{@code quota} units per {@code window}", with what is left of it
 * and when more arrives. A response may carry several (a per-second burst and a daily cap, say);
 * {@link RateLimitSignals#policies()} lists them all.
 *
 * <p>Immutable and thread-safe. Unknown parts are empty or {@code null}; a known count or
 * duration is never negative. Policies read from a response also never hold a window or reset over
 * a year, nor a remaining above the quota: such values cannot be true, so the parser leaves them
 * out rather than clamp them, and flags the signals {@linkplain RateLimitSignals#isAnomalous()
 * anomalous}.
 *
 * <pre>{@code
 * RateLimitPolicy perMinute = RateLimitPolicy.builder("permin").quota(50).window(Duration.ofSeconds(60)).build();
 * }</pre>
 */
public final class RateLimitPolicy {
  /** The quota unit servers use when they name none: one request is one unit. */
  public static final String REQUESTS = "requests";

  private final String name;
  private final long quota;
  private final long remaining;
  private final @Nullable Duration window;
  private final @Nullable Duration reset;
  private final String unit;
  private final @Nullable String partitionKey;

  private RateLimitPolicy(Builder b) {
    this.name = b.name;
    this.quota = b.quota;
    this.remaining = b.remaining;
    this.window = b.window;
    this.reset = b.reset;
    this.unit = b.unit;
    this.partitionKey = b.partitionKey;
  }

  /**
   * Starts a policy.
   *
   * <pre>{@code RateLimitPolicy.builder("default").quota(100).window(Duration.ofSeconds(10)).build()}</pre>
   *
   * @param name the policy's name as the server gave it, or {@code ""} when it gave none
   */
  public static Builder builder(String name) {
    return new Builder(name);
  }

  /** The policy's name as the server gave it; {@code ""} when it gave none. */
  public String name() {
    return name;
  }

  /** Units allowed per window, when the server said. */
  public OptionalLong quota() {
    return quota < 0 ? OptionalLong.empty() : OptionalLong.of(quota);
  }

  /** Units still available, when the server said. */
  public OptionalLong remaining() {
    return remaining < 0 ? OptionalLong.empty() : OptionalLong.of(remaining);
  }

  /** The window the quota applies to, when the server said. */
  public @Nullable Duration window() {
    return window;
  }

  /** How long until more quota becomes available, measured from the response. */
  public @Nullable Duration reset() {
    return reset;
  }

  /** The quota unit: {@link #REQUESTS} unless the server named another ("content-bytes", "tokens"). */
  public String unit() {
    return unit;
  }

  /** Whether this quota counts requests, so that it can pace them. */
  public boolean countsRequests() {
    return REQUESTS.equals(unit) || "request".equals(unit);
  }

  /**
   * Whether the quota is spent: the server said nothing remains. The one rule for "spent" that
   * parsing (which policy governs, whether a 403 is a rejection), pausing and retrying share.
   */
  public boolean isSpent() {
    return remaining == 0;
  }

  /** The server's partition key (IETF {@code pk}), base64 as sent; {@code null} when absent. */
  public @Nullable String partitionKey() {
    return partitionKey;
  }

  /**
   * The sustained rate this policy allows, in units per second, or {@code NaN} when the quota or
   * the window is unknown.
   */
  public double ratePerSecond() {
    if (quota < 0 || window == null || window.isZero()) {
      return Double.NaN;
    }
    return quota / (window.getSeconds() + window.getNano() / 1e9); // toNanos() overflows past 292 years
  }

  /** A builder seeded with this policy's values. */
  public Builder toBuilder() {
    Builder b = new Builder(name);
    b.quota = quota;
    b.remaining = remaining;
    b.window = window;
    b.reset = reset;
    b.unit = unit;
    b.partitionKey = partitionKey;
    return b;
  }

  @Override
  public boolean equals(@Nullable Object o) {
    if (!(o instanceof RateLimitPolicy)) {
      return false;
    }
    RateLimitPolicy p = (RateLimitPolicy) o;
    return quota == p.quota
        && remaining == p.remaining
        && name.equals(p.name)
        && Objects.equals(window, p.window)
        && Objects.equals(reset, p.reset)
        && unit.equals(p.unit)
        && Objects.equals(partitionKey, p.partitionKey);
  }

  @Override
  public int hashCode() {
    return Objects.hash(name, quota, remaining, window, reset, unit, partitionKey);
  }

  @Override
  public String toString() {
    StringBuilder s = new StringBuilder("RateLimitPolicy{").append('"').append(name).append('"');
    if (quota >= 0) s.append(" quota=").append(quota);
    if (remaining >= 0) s.append(" remaining=").append(remaining);
    if (window != null) s.append(" window=").append(window);
    if (reset != null) s.append(" reset=").append(reset);
    if (!REQUESTS.equals(unit)) s.append(" unit=").append(unit);
    return s.append('}').toString();
  }

  /** Builds a {@link RateLimitPolicy}. Not thread-safe; the policy it builds is. */
  public static final class Builder {
    // package-private: RateLimitSignals.Builder edits the governing policy's fields, -1 or null
    // meaning "unknown", which the public setters refuse
    String name;
    long quota = -1;
    long remaining = -1;
    @Nullable Duration window;
    @Nullable Duration reset;
    String unit = REQUESTS;
    @Nullable String partitionKey;

    private Builder(String name) {
      this.name = Objects.requireNonNull(name, "name");
    }

    /** Units allowed per window; must not be negative. */
    public Builder quota(long quota) {
      if (quota < 0) throw new IllegalArgumentException("quota must be >= 0: " + quota);
      this.quota = quota;
      return this;
    }

    /** Units still available; must not be negative. */
    public Builder remaining(long remaining) {
      if (remaining < 0) throw new IllegalArgumentException("remaining must be >= 0: " + remaining);
      this.remaining = remaining;
      return this;
    }

    /** The window; must be positive. */
    public Builder window(Duration window) {
      if (window.isNegative() || window.isZero()) {
        throw new IllegalArgumentException("window must be positive: " + window);
      }
      this.window = window;
      return this;
    }

    /** Time until more quota arrives; must not be negative. */
    public Builder reset(Duration reset) {
      if (reset.isNegative()) throw new IllegalArgumentException("reset must be >= 0: " + reset);
      this.reset = reset;
      return this;
    }

    /** The quota unit, such as {@code "requests"} or {@code "content-bytes"}. */
    public Builder unit(String unit) {
      this.unit = Objects.requireNonNull(unit, "unit");
      return this;
    }

    /** The server's partition key, as sent. */
    public Builder partitionKey(@Nullable String partitionKey) {
      this.partitionKey = partitionKey;
      return this;
    }

    /** The immutable policy. */
    public RateLimitPolicy build() {
      return new RateLimitPolicy(this);
    }
  }
}
