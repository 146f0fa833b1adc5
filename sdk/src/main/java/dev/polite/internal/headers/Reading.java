package dev.polite.internal.headers;

import dev.polite.RateLimitPolicy;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * What the dialects have read from one response so far: the policies each reported (with the
 * dialect that reported it), the retry hint, the flags. Also the response's own clock: absolute
 * times are turned into delays against its {@code Date} header (servers chose delays precisely
 * because clocks disagree), falling back to ours only when {@code Date} is missing or unreadable.
 *
 * <p>One per parse, confined to the parsing thread.
 */
final class Reading {
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
  // a response reports one to four policies: the default capacity of 10 was 48 bytes of garbage per list
  final List<RateLimitPolicy> policies = new ArrayList<>(4);
  final List<String> policyDialects = new ArrayList<>(4);

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

  void addPolicy(RateLimitPolicy policy, String dialect) {
    policies.add(policy);
    policyDialects.add(dialect);
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

  void bucket(String bucket) {
    this.bucket = bucket;
  }

  @Nullable String bucket() {
    return bucket;
  }

  void scope(String scope) {
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
