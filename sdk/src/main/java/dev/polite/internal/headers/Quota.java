package dev.polite.internal.headers;

import dev.polite.RateLimitPolicy;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * A policy being assembled while a dialect reads its fields (OpenAI spreads one quota over three
 * headers, the IETF drafts over two fields): every part optional, -1 when unknown. Becomes an
 * immutable {@link RateLimitPolicy} once read.
 */
final class Quota {
  final String name;
  @Nullable String partitionKey;
  long quota = -1;
  long remaining = -1;
  long windowMillis = -1;
  long resetMillis = -1;
  String unit = RateLimitPolicy.REQUESTS;

  Quota(String name) {
    this.name = name;
  }

  /** Quota names most vendor headers carry, so that reading one allocates no name. */
  private static final String[] COMMON_NAMES = {"requests", "tokens", "input-tokens", "output-tokens"};

  /** {@code s[start, end)} in lower case: a shared constant for a common name, else a new String. */
  static String lowerName(String s, int start, int end) {
    for (String known : COMMON_NAMES) {
      if (Ascii.regionEquals(s, start, end, known)) return known;
    }
    return s.substring(start, end).toLowerCase(Locale.ROOT);
  }

  /**
   * What a {@code RateLimit} item says of this quota: its remaining count, its reset, its quota
   * ({@code q}, kept only where none was read before).
   */
  void report(Reading r, long remaining, long reset, long q) {
    if (remaining >= 0) this.remaining = remaining;
    if (reset >= 0) this.resetMillis = r.kept(Plausible.delaySeconds(reset));
    if (q >= 0 && this.quota < 0) this.quota = q;
  }

  boolean isEmpty() {
    return quota < 0 && remaining < 0 && windowMillis <= 0 && resetMillis < 0;
  }

  /** Sets the window in milliseconds if it can be true; otherwise leaves it unknown, flagged. */
  void window(Reading r, long millis) {
    windowMillis = r.window(millis);
  }

  /** Sets the window in seconds (-1 for unknown) if it can be true; otherwise leaves it unknown, flagged. */
  void windowSeconds(Reading r, long seconds) {
    if (seconds >= 0) window(r, seconds > Long.MAX_VALUE / 1000 ? Long.MAX_VALUE : seconds * 1000);
  }

  RateLimitPolicy toPolicy() {
    RateLimitPolicy.Builder b = RateLimitPolicy.builder(name).unit(unit).partitionKey(partitionKey);
    if (quota >= 0) b.quota(quota);
    if (remaining >= 0) b.remaining(remaining);
    if (windowMillis > 0) b.window(durationOf(windowMillis));
    if (resetMillis >= 0) b.reset(durationOf(resetMillis));
    return b.build();
  }

  /**
   * Whole seconds up to {@link #SHARED_SECONDS}, made once: the windows and resets most answers
   * carry (the IETF fields and most vendors count in whole seconds, and windows of a second or a
   * minute are the common ones), so that a policy read costs no Duration of its own for them.
   */
  private static final Duration[] WHOLE_SECONDS = new Duration[121];
  private static final long SHARED_SECONDS = WHOLE_SECONDS.length - 1;

  static {
    for (int s = 0; s < WHOLE_SECONDS.length; s++) WHOLE_SECONDS[s] = Duration.ofSeconds(s);
  }

  static Duration durationOf(long millis) {
    if (millis % 1000 == 0 && millis >= 0 && millis / 1000 <= SHARED_SECONDS) {
      return WHOLE_SECONDS[(int) (millis / 1000)];
    }
    return Duration.ofMillis(millis);
  }

  /**
   * Adds the policy to the reading unless nothing about it was known. A remaining above the quota
   * cannot be true of one policy: the remaining is dropped and flagged, the quota kept (why:
   * {@link Plausible}).
   */
  void addTo(Reading r, String dialect) {
    remaining = r.kept(Plausible.remaining(remaining, quota));
    if (isEmpty()) return;
    r.addPolicy(toPolicy(), dialect);
  }

  /**
   * Gives the expiring limit's live count and reset to the policy whose quota it equals, or to a
   * new unnamed one when none does; returns that policy (or null when nothing was known).
   */
  static @Nullable Quota attachExpiring(List<Quota> quotas, String name, long limit, long remaining, long resetMillis) {
    if (limit < 0 && remaining < 0 && resetMillis < 0) return null;
    Quota q = limit >= 0 ? policyFor(quotas, limit) : quotas.size() == 1 ? quotas.get(0) : null;
    if (q == null) {
      q = new Quota(name);
      q.quota = limit;
      quotas.add(0, q);
    }
    q.remaining = remaining;
    q.resetMillis = resetMillis;
    return q;
  }

  static @Nullable Quota policyFor(List<Quota> quotas, long quota) {
    for (Quota q : quotas) {
      if (q.quota == quota) return q;
    }
    return null;
  }

}
