package dev.polite;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;
import org.jspecify.annotations.Nullable;

/**
 * What one response says about the caller's rate limit, normalised across header dialects.
 *
 * <p>The headline fields ({@link #limit()}, {@link #remaining()}, {@link #reset()},
 * {@link #window()}, {@link #policyName()}, {@link #quotaUnit()}) are those of the
 * {@linkplain #governing() governing policy}: the one that paces, the most restrictive request
 * quota when a server reports several (or a spent quota of any unit, which must pause);
 * {@link #policies()} lists every policy the response carried. Durations are measured from the response (absolute
 * times were converted against its {@code Date} header), are never negative, and are rounded up.
 * Parsers drop malformed values rather than throw, and leave out values that cannot be true rather
 * than clamp them into a decision (see {@link #isAnomalous()}), so an absent value means "not
 * said, not understood, or not believable".
 *
 * <p>Immutable and thread-safe.
 *
 * <pre>{@code
 * RateLimitSignals signals = RateLimitHeaders.standard().parse(response);
 * Duration wait = signals.retryAfter();   // null when the server named no delay
 * }</pre>
 */
public final class RateLimitSignals {
  /** The dialect name of a response that carried no rate-limit signal at all. */
  public static final String NO_DIALECT = "none";

  private static final RateLimitSignals NONE = builder().build();

  private final @Nullable Duration retryAfter;
  private final @Nullable RateLimitPolicy governing;
  private final List<RateLimitPolicy> policies;
  private final boolean rejection;
  private final @Nullable Boolean shouldRetry;
  private final boolean anomalous;
  private final String dialect;
  private final @Nullable String bucket;
  private final @Nullable String scope;
  private final boolean global;

  private RateLimitSignals(Builder b) {
    this.retryAfter = b.retryAfter;
    this.governing = b.edited != null ? b.edited.build() : b.governing;
    this.policies = List.copyOf(b.policies);
    this.rejection = b.rejection;
    this.shouldRetry = b.shouldRetry;
    this.anomalous = b.anomalous;
    this.dialect = b.dialect;
    this.bucket = b.bucket;
    this.scope = b.scope;
    this.global = b.global;
  }

  /** Signals that say nothing: no delay, no limit, not a rejection. */
  public static RateLimitSignals none() {
    return NONE;
  }

  /**
   * Starts a set of signals; parsers and custom dialects use it.
   *
   * <pre>{@code RateLimitSignals.builder().retryAfter(Duration.ofSeconds(2)).rejection(true).build()}</pre>
   */
  public static Builder builder() {
    return new Builder();
  }

  /** The delay the server asked for before the next call (Retry-After and its kin). */
  public @Nullable Duration retryAfter() {
    return retryAfter;
  }

  /**
   * The policy whose numbers are the headline, {@code null} when none governs (no policy was
   * reported, or only quotas of other units that are not spent). Usually one of
   * {@link #policies()}; a custom dialect may have edited it.
   */
  public @Nullable RateLimitPolicy governing() {
    return governing;
  }

  /** The governing policy's quota, when known. */
  public OptionalLong limit() {
    return governing == null ? OptionalLong.empty() : governing.quota();
  }

  /** What is left of the governing policy's quota, when known. */
  public OptionalLong remaining() {
    return governing == null ? OptionalLong.empty() : governing.remaining();
  }

  /** Time until the governing policy's quota is restored, measured from the response. */
  public @Nullable Duration reset() {
    return governing == null ? null : governing.reset();
  }

  /** The governing policy's window, when known. */
  public @Nullable Duration window() {
    return governing == null ? null : governing.window();
  }

  /** The governing policy's name, when the server named it. */
  public @Nullable String policyName() {
    return governing == null || governing.name().isEmpty() ? null : governing.name();
  }

  /** The governing policy's quota unit; {@code null} when no policy governs. */
  public @Nullable String quotaUnit() {
    return governing == null ? null : governing.unit();
  }

  /**
   * Every policy the response reported, in the order it reported them. The built-in parser keeps
   * at most 16, the governing one always among them, and none whose name, unit or partition key
   * is over 256 characters (either flags the signals {@linkplain #isAnomalous() anomalous}), as a
   * key keeps its last signals whatever a server sends.
   */
  public List<RateLimitPolicy> policies() {
    return policies;
  }

  /**
   * Whether the governing quota is spent ({@link RateLimitPolicy#isSpent()}): nothing may be sent
   * on it until its {@link #reset()}.
   */
  public boolean isQuotaSpent() {
    return governing != null && governing.isSpent();
  }

  /**
   * Whether the response is a rate-limit rejection: a 429, or a 403 that reports an exhausted
   * quota (as GitHub sends).
   */
  public boolean isRejection() {
    return rejection;
  }

  /**
   * The server's explicit word on retrying ({@code Stripe-Should-Retry}, {@code x-should-retry}):
   * {@code null} when it said nothing.
   */
  public @Nullable Boolean shouldRetry() {
    return shouldRetry;
  }

  /**
   * Whether the response carried a value that cannot be true, which the parser left out rather
   * than clamped, or several values for a singleton field. Values that cannot be true: a delay,
   * reset or window over a year, an absolute time more than a year from the response's
   * {@code Date}, a window of zero, a negative count other than the documented {@code -1}
   * ("unknown"), a remaining above its own policy's quota, a number with more digits than any
   * field allows, {@code NaN} or {@code Infinity}; also a response past the parser's bounds (a
   * structured field of more than 1,024 members or 256 parameters, which is ignored, more than 16
   * policies, a text over 256 characters). Worth logging: the server, or something between
   * it and the caller, is sending garbage; the signals hold only what could be believed.
   */
  public boolean isAnomalous() {
    return anomalous;
  }

  /** The dialect the signals were read in, or {@link #NO_DIALECT}. */
  public String dialect() {
    return dialect;
  }

  /**
   * The server's name for the budget the request counted against, when it named one: Discord's
   * {@code X-RateLimit-Bucket}, GitHub's {@code x-ratelimit-resource} ({@code core},
   * {@code search}), or the IETF {@code RateLimit} fields' policy names (with their partition
   * keys), sorted and joined by commas ({@code "burst,daily"}). Requests sharing a bucket share a
   * limit: polite keeps one state per bucket of a key, and learns which routes spend which.
   */
  public @Nullable String bucket() {
    return bucket;
  }

  /**
   * The scope of a rejection, when the server said: Discord's {@code X-RateLimit-Scope}
   * ({@code user}, {@code global}, {@code shared}; a {@code shared} rejection does not count
   * against the caller).
   */
  public @Nullable String scope() {
    return scope;
  }

  /**
   * Whether the server said the limit hit is global, spanning every route of the caller
   * (Discord's {@code X-RateLimit-Global: true}), rather than one bucket.
   */
  public boolean isGlobal() {
    return global;
  }

  /**
   * Whether the server advertised a request rate: a governing request quota with its window, from
   * which a pace of {@code limit / window} follows.
   */
  public boolean advertisesRate() {
    return governing != null && governing.countsRequests()
        && governing.quota().orElse(0) > 0 && governing.ratePerSecond() > 0;
  }

  /** The advertised request rate per second, or {@code NaN} when {@link #advertisesRate()} is false. */
  public double advertisedRatePerSecond() {
    return advertisesRate() ? governing.ratePerSecond() : Double.NaN;
  }

  /**
   * Whether the governing quota counts requests (rather than tokens or bytes); true when no policy
   * governs, since then nothing says otherwise.
   */
  public boolean countsRequests() {
    return governing == null || governing.countsRequests();
  }

  /** Whether the response carried any signal at all. */
  public boolean isEmpty() {
    return retryAfter == null && governing == null && policies.isEmpty() && shouldRetry == null
        && !rejection && bucket == null && scope == null && !global;
  }

  /** A builder seeded with these signals. */
  public Builder toBuilder() {
    Builder b = new Builder();
    b.retryAfter = retryAfter;
    b.governing = governing;
    b.policies = policies;
    b.rejection = rejection;
    b.shouldRetry = shouldRetry;
    b.anomalous = anomalous;
    b.dialect = dialect;
    b.bucket = bucket;
    b.scope = scope;
    b.global = global;
    return b;
  }

  @Override
  public boolean equals(@Nullable Object o) {
    if (!(o instanceof RateLimitSignals)) {
      return false;
    }
    RateLimitSignals s = (RateLimitSignals) o;
    return rejection == s.rejection
        && anomalous == s.anomalous
        && Objects.equals(retryAfter, s.retryAfter)
        && Objects.equals(governing, s.governing)
        && policies.equals(s.policies)
        && Objects.equals(shouldRetry, s.shouldRetry)
        && dialect.equals(s.dialect)
        && global == s.global
        && Objects.equals(bucket, s.bucket)
        && Objects.equals(scope, s.scope);
  }

  @Override
  public int hashCode() {
    return Objects.hash(retryAfter, governing, policies, rejection, shouldRetry, anomalous, dialect,
        bucket, scope, global);
  }

  @Override
  public String toString() {
    StringBuilder s = new StringBuilder("RateLimitSignals{").append(dialect);
    if (rejection) s.append(" rejection");
    if (retryAfter != null) s.append(" retryAfter=").append(retryAfter);
    if (governing != null) s.append(" governing=").append(governing);
    if (shouldRetry != null) s.append(" shouldRetry=").append(shouldRetry);
    if (bucket != null) s.append(" bucket=").append(bucket);
    if (scope != null) s.append(" scope=").append(scope);
    if (global) s.append(" global");
    if (anomalous) s.append(" anomalous");
    if (policies.size() > 1) s.append(" policies=").append(policies.size());
    return s.append('}').toString();
  }

  /**
   * Builds {@link RateLimitSignals}. The headline setters ({@link #limit}, {@link #remaining},
   * {@link #reset}, {@link #window}, {@link #policyName}, {@link #quotaUnit}) edit the governing
   * policy, starting an unnamed one when none governs yet. Setters reject values no parser should
   * produce (negative counts and durations), so a parser validates before it sets. Not
   * thread-safe.
   */
  public static final class Builder {
    private @Nullable Duration retryAfter;
    // The governing policy as given, shared rather than copied (parsing makes one per response);
    // a headline setter copies it into `edited` once, and the edits win.
    private @Nullable RateLimitPolicy governing;
    private RateLimitPolicy.@Nullable Builder edited;
    // An immutable list is held as it is (a parse hands over one, and build()'s List.copyOf then
    // returns it without a copy); addPolicy makes a list of its own to add to.
    private List<RateLimitPolicy> policies = List.of();
    private boolean policiesOwned;
    private boolean rejection;
    private @Nullable Boolean shouldRetry;
    private boolean anomalous;
    private String dialect = NO_DIALECT;
    private @Nullable String bucket;
    private @Nullable String scope;
    private boolean global;

    private Builder() {}

    private RateLimitPolicy.Builder headline() {
      if (edited == null) {
        edited = governing == null ? RateLimitPolicy.builder("") : governing.toBuilder();
      }
      return edited;
    }

    /** The delay the server asked for; {@code null} clears it. */
    public Builder retryAfter(@Nullable Duration retryAfter) {
      this.retryAfter = nonNegative(retryAfter, "retryAfter");
      return this;
    }

    /** The governing quota; -1 clears it. */
    public Builder limit(long limit) {
      headline().quota = atLeastMinusOne(limit, "limit");
      return this;
    }

    /** What is left of the governing quota; -1 clears it. */
    public Builder remaining(long remaining) {
      headline().remaining = atLeastMinusOne(remaining, "remaining");
      return this;
    }

    /** Time until the governing quota is restored; {@code null} clears it. */
    public Builder reset(@Nullable Duration reset) {
      headline().reset = nonNegative(reset, "reset");
      return this;
    }

    /** The governing window; {@code null} clears it, and so does zero, which no limit can have. */
    public Builder window(@Nullable Duration window) {
      headline().window = window == null || window.isZero() ? null : nonNegative(window, "window");
      return this;
    }

    /** The governing policy's name; {@code null} for none. */
    public Builder policyName(@Nullable String policyName) {
      headline().name = policyName == null ? "" : policyName;
      return this;
    }

    /** The governing policy's quota unit; {@code null} for requests. */
    public Builder quotaUnit(@Nullable String quotaUnit) {
      headline().unit = quotaUnit == null ? RateLimitPolicy.REQUESTS : quotaUnit;
      return this;
    }

    /** Adds one reported policy. */
    public Builder addPolicy(RateLimitPolicy policy) {
      Objects.requireNonNull(policy, "policy");
      if (!policiesOwned) {
        policies = new ArrayList<>(policies);
        policiesOwned = true;
      }
      policies.add(policy);
      return this;
    }

    /** Replaces the reported policies (a copy; none may be null). */
    public Builder policies(List<RateLimitPolicy> policies) {
      this.policies = List.copyOf(policies);
      this.policiesOwned = false;
      return this;
    }

    /** Makes {@code policy} the governing one; {@code null} for none. */
    public Builder governedBy(@Nullable RateLimitPolicy policy) {
      governing = policy;
      edited = null;
      return this;
    }

    /** Whether the response is a rate-limit rejection. */
    public Builder rejection(boolean rejection) {
      this.rejection = rejection;
      return this;
    }

    /** The server's explicit retry verdict; {@code null} when it gave none. */
    public Builder shouldRetry(@Nullable Boolean shouldRetry) {
      this.shouldRetry = shouldRetry;
      return this;
    }

    /** Marks that some value could not be true and was left out (see {@link RateLimitSignals#isAnomalous()}). */
    public Builder anomalous(boolean anomalous) {
      this.anomalous = anomalous;
      return this;
    }

    /** The dialect's name. */
    public Builder dialect(String dialect) {
      this.dialect = Objects.requireNonNull(dialect, "dialect");
      return this;
    }

    /** The server's bucket name; {@code null} when it named none. */
    public Builder bucket(@Nullable String bucket) {
      this.bucket = bucket;
      return this;
    }

    /** The rejection's scope; {@code null} when the server named none. */
    public Builder scope(@Nullable String scope) {
      this.scope = scope;
      return this;
    }

    /** Whether the limit hit spans every route of the caller. */
    public Builder global(boolean global) {
      this.global = global;
      return this;
    }

    /** The immutable signals. */
    public RateLimitSignals build() {
      return new RateLimitSignals(this);
    }

    private static @Nullable Duration nonNegative(@Nullable Duration d, String name) {
      if (d != null && d.isNegative()) {
        throw new IllegalArgumentException(name + " must not be negative: " + d);
      }
      return d;
    }

    private static long atLeastMinusOne(long v, String name) {
      if (v < -1) {
        throw new IllegalArgumentException(name + " must be >= 0 (or -1 for unknown): " + v);
      }
      return v;
    }
  }
}
