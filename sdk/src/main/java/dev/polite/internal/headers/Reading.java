package dev.polite.internal.headers;

import dev.polite.RateLimitPolicy;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What the dialects have read from one response so far: the policies each reported (with the
 * dialect that reported it), the retry hint, the flags. Also the response's own clock: absolute
 * times are turned into delays against its {@code Date} header (servers chose delays precisely
 * because clocks disagree), falling back to ours only when {@code Date} is missing or unreadable.
 *
 * <p>Bounded in what it passes on, because a key keeps its last signals (and a key's budgets one
 * each): at most {@link #MAX_POLICIES} policies, and no text longer than {@link #MAX_TEXT}
 * characters (a policy with a longer name, unit or partition key is dropped, a longer bucket or
 * scope is not kept), each flagged. So one response's signals hold at most about
 * 16 &times; (3 &times; 256 characters + about 150 bytes of policy) + 2 &times; 256 &asymp; 15 KB,
 * where a 250 KiB {@code RateLimit} of distinct names once left tens of thousands of policies,
 * megabytes, on its key.
 *
 * <p>One per parse, confined to the parsing thread.
 */
final class Reading {
  /**
   * Policies one response's signals keep: four times the most a server of the corpus reports
   * (Anthropic's requests, tokens, input and output tokens), and as many as a key keeps budgets
   * ({@code KeyBudgets.MAX_BUDGETS}).
   */
  static final int MAX_POLICIES = 16;
  /**
   * The longest policy name, unit, partition key, bucket or scope kept: four times the 64
   * characters a budget name may have ({@code KeyBudgets.MAX_NAME}), room for any name of the
   * corpus (the longest is under 30) or a 192-byte partition key in base64.
   */
  static final int MAX_TEXT = 256;

  final ResponseHeaders headers;
  private final long nowMillis;
  private long baseMillis = Long.MIN_VALUE;
  private boolean anomalous;
  private long retryAfterMillis = -1;
  private @Nullable Boolean shouldRetry;
  private @Nullable String fallbackDialect;
  private @Nullable String bucket;
  private @Nullable String scope;
  private boolean global;
  // Most responses report one policy: it is kept alone, and handed on as an immutable list of
  // one that the signals adopt without a copy. Lists are made only for a second one.
  private @Nullable RateLimitPolicy firstPolicy;
  private @Nullable String firstDialect;
  private @Nullable List<RateLimitPolicy> policies;
  private @Nullable List<String> policyDialects;

  Reading(ResponseHeaders headers, long nowMillis) {
    this.headers = headers;
    this.nowMillis = nowMillis;
  }

  /** The response's time in epoch milliseconds: its {@code Date}, else our clock. */
  long baseMillis() {
    if (baseMillis == Long.MIN_VALUE) {
      String date = headers.first(Field.DATE);
      long t = date == null ? HttpDates.INVALID : HttpDates.parse(date, CivilTime.yearOf(nowMillis));
      baseMillis = t == HttpDates.INVALID ? nowMillis : t;
    }
    return baseMillis;
  }

  int baseYear() {
    return CivilTime.yearOf(baseMillis());
  }

  /**
   * {@code value} as a {@link Plausible} rule judged it: DROPPED (said, but cannot be true) becomes
   * ABSENT and flags the reading; anything else passes through.
   */
  long kept(long value) {
    if (value == Plausible.DROPPED) {
      anomaly();
      return Plausible.ABSENT;
    }
    return value;
  }

  /** A delay in milliseconds if it can be true (0 to a year); else ABSENT, flagged. */
  long delay(long millis) {
    return kept(Plausible.delay(millis));
  }

  /**
   * The delay until {@code targetMillis}, measured from the response: 0 when the target has passed
   * (a reset may equal or precede {@code Date}), ABSENT and flagged when it lies more than a year
   * away either way (a value misread as a date, or a date with a broken year).
   */
  long delayUntil(long targetMillis, boolean secondResolution) {
    return kept(Plausible.until(targetMillis, baseMillis(), secondResolution));
  }

  /** A window in milliseconds if it can be true (above 0, up to a year); else ABSENT, flagged. */
  long window(long millis) {
    return kept(Plausible.window(millis));
  }

  void anomaly() {
    anomalous = true;
  }

  boolean anomalous() {
    return anomalous;
  }

  /** Adds a policy the response reported, unless a text of it is past {@link #MAX_TEXT} (flagged). */
  void addPolicy(RateLimitPolicy policy, String dialect) {
    String pk = policy.partitionKey();
    if (policy.name().length() > MAX_TEXT || policy.unit().length() > MAX_TEXT
        || (pk != null && pk.length() > MAX_TEXT)) {
      anomaly();
      return;
    }
    if (firstPolicy == null) {
      firstPolicy = policy;
      firstDialect = dialect;
      return;
    }
    if (policies == null) {
      policies = new ArrayList<>(4);
      policyDialects = new ArrayList<>(4);
      policies.add(firstPolicy);
      policyDialects.add(firstDialect);
    }
    policies.add(policy);
    policyDialects.add(dialect);
  }

  /** Every policy reported, in the response's order. */
  List<RateLimitPolicy> policies() {
    if (policies != null) return policies;
    return firstPolicy == null ? List.of() : List.of(firstPolicy);
  }

  /** The dialect that reported policy {@code i} of {@link #policies()}. */
  String policyDialect(int i) {
    return policyDialects != null ? policyDialects.get(i) : Objects.requireNonNull(firstDialect);
  }

  /**
   * The policies to pass on, of {@code policies} (this reading's): all of them, or, past {@link #MAX_POLICIES} (flagged), the first ones
   * in the response's order with the {@code governing} one (an index, or -1) always among them,
   * so that the cap never changes which policy paces or pauses.
   */
  List<RateLimitPolicy> keptPolicies(List<RateLimitPolicy> policies, int governing) {
    if (policies.size() <= MAX_POLICIES) return policies;
    anomaly();
    List<RateLimitPolicy> kept = new ArrayList<>(policies.subList(0, MAX_POLICIES));
    if (governing >= MAX_POLICIES) kept.set(MAX_POLICIES - 1, policies.get(governing));
    return kept;
  }

  /**
   * Notes a dialect that was recognised even if it reported no quota (a Discord global 429). The
   * first wins, except that any vendor's name beats the generic {@code retry-after}.
   */
  void recognised(String dialect) {
    if (fallbackDialect == null || RetryAfter.DIALECT.equals(fallbackDialect)) fallbackDialect = dialect;
  }

  @Nullable String fallbackDialect() {
    return fallbackDialect;
  }

  void retryAfterMillis(long millis, String dialect) {
    retryAfterMillis = millis;
    recognised(dialect);
  }

  long retryAfterMillis() {
    return retryAfterMillis;
  }

  void shouldRetry(boolean verdict) {
    // when two gates disagree, "don't" wins: retrying against a server's word is the costlier error
    shouldRetry = shouldRetry == null ? verdict : shouldRetry && verdict;
  }

  @Nullable Boolean shouldRetry() {
    return shouldRetry;
  }

  /** Names the response's budget, unless the name is past {@link #MAX_TEXT} (flagged). */
  void bucket(String bucket) {
    if (bucket.length() > MAX_TEXT) {
      anomaly();
      return;
    }
    this.bucket = bucket;
  }

  @Nullable String bucket() {
    return bucket;
  }

  /** Names the rejection's scope, unless the name is past {@link #MAX_TEXT} (flagged). */
  void scope(String scope) {
    if (scope.length() > MAX_TEXT) {
      anomaly();
      return;
    }
    this.scope = scope;
  }

  @Nullable String scope() {
    return scope;
  }

  void global(boolean global) {
    this.global |= global;
  }

  boolean global() {
    return global;
  }
}
