package dev.polite.internal.headers;

import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The {@code X-RateLimit-*} family, which many vendors share with different meanings, told apart
 * by which sibling fields come along (header-set signatures, never casing):
 *
 * <ul>
 *   <li>{@code discord}: {@code -Reset-After} (a delay in seconds, decimals, preferred over the
 *       fractional epoch in {@code -Reset}), {@code -Bucket}, {@code -Global}, {@code -Scope};
 *   <li>{@code github}: {@code -Resource}, or {@code -Used} beside {@code -Limit}; epoch reset;
 *   <li>{@code reddit}: {@code -Used} without {@code -Limit} (the limit is used + remaining);
 *       decimals floored, delta reset;
 *   <li>{@code envoy}: a limit with quota policies ({@code 10, 10;w=60;name="per-ip"},
 *       draft-03 syntax under X- names);
 *   <li>{@code spring-cloud-gateway}: {@code -Replenish-Rate} and {@code -Burst-Capacity}: a
 *       token bucket of that capacity, refilled at that rate;
 *   <li>{@code atlassian}: {@code -NearLimit} or {@code RateLimit-Reason} or the
 *       {@code X-Beta-RateLimit-*} fields; ISO minute-precision reset;
 *   <li>{@code x-ratelimit}: anything else (express-rate-limit, fastify, Auth0, lemlist...).
 * </ul>
 *
 * <p>The reset's unit comes from its shape and magnitude (epoch seconds, epoch milliseconds or
 * delta; ISO, HTTP or JavaScript dates), which reads every vendor above correctly.
 */
final class XRateLimitDialect {
  private XRateLimitDialect() {}

  static void read(Reading r) {
    ResponseHeaders h = r.headers;
    boolean discord = h.has(Field.X_RATELIMIT_RESET_AFTER) || h.has(Field.X_RATELIMIT_BUCKET)
        || h.has(Field.X_RATELIMIT_GLOBAL) || h.has(Field.X_RATELIMIT_SCOPE);
    boolean spring = h.has(Field.X_RATELIMIT_REPLENISH_RATE) || h.has(Field.X_RATELIMIT_BURST_CAPACITY);
    if (!discord && !spring && !h.has(Field.X_RATELIMIT_LIMIT) && !h.has(Field.X_RATELIMIT_REMAINING)
        && !h.has(Field.X_RATELIMIT_RESET) && !h.has(Field.X_RATELIMIT_USED)) {
      return;
    }
    String limitText = h.joined(Field.X_RATELIMIT_LIMIT);
    boolean envoy = limitText != null && limitText.indexOf(';') >= 0;
    boolean github = h.has(Field.X_RATELIMIT_RESOURCE) || (h.has(Field.X_RATELIMIT_USED) && limitText != null);
    boolean reddit = h.has(Field.X_RATELIMIT_USED) && limitText == null;
    boolean atlassian = h.has(Field.X_RATELIMIT_NEARLIMIT) || h.has(Field.RATELIMIT_REASON)
        || h.has(Field.X_BETA_RATELIMIT_REASON) || h.has(Field.X_BETA_RATELIMIT_NEARLIMIT)
        || h.has(Field.X_BETA_RATELIMIT_RESET);
    String dialect = discord ? "discord" : github ? "github" : reddit ? "reddit" : envoy ? "envoy"
        : spring ? "spring-cloud-gateway" : atlassian ? "atlassian" : "x-ratelimit";

    List<Quota> quotas = new ArrayList<>(2);
    long limit = envoy ? envoyLimit(r, limitText, quotas) : Counts.read(r, Field.X_RATELIMIT_LIMIT, false);
    long remaining = Counts.read(r, Field.X_RATELIMIT_REMAINING, false);
    long used = Counts.read(r, Field.X_RATELIMIT_USED, true);
    if (limit < 0 && used >= 0 && remaining >= 0) limit = used + remaining;
    long reset = -1;
    if (h.has(Field.X_RATELIMIT_RESET_AFTER)) {
      reset = Delays.read(r, Field.X_RATELIMIT_RESET_AFTER, Delays.Unit.SECONDS);
    }
    if (reset < 0) reset = Delays.read(r, Field.X_RATELIMIT_RESET, Delays.Unit.MAGNITUDE);

    String name = "";
    String bucket = trimmed(h.first(github ? Field.X_RATELIMIT_RESOURCE : Field.X_RATELIMIT_BUCKET));
    if (bucket != null) {
      r.bucket(bucket);
      name = bucket;
    }
    if (discord) {
      String scope = trimmed(h.first(Field.X_RATELIMIT_SCOPE));
      if (scope != null) r.scope(scope);
      String global = trimmed(h.first(Field.X_RATELIMIT_GLOBAL));
      if (global != null && global.equalsIgnoreCase("true")) r.global(true);
    }
    if (spring) {
      long rate = Counts.read(r, Field.X_RATELIMIT_REPLENISH_RATE, false);
      long burst = Counts.read(r, Field.X_RATELIMIT_BURST_CAPACITY, false);
      Quota bucketQuota = new Quota(name);
      if (rate > 0 && burst > 0) {
        bucketQuota.quota = burst;
        bucketQuota.window(r, Math.max(1, burst * 1000 / rate)); // counts have at most 15 digits: no overflow
      } else if (rate > 0) {
        bucketQuota.quota = rate;
        bucketQuota.windowMillis = 1000;
      }
      bucketQuota.remaining = remaining;
      bucketQuota.resetMillis = reset;
      if (limit < 0 || limit == bucketQuota.quota) {
        bucketQuota.addTo(r, dialect);
        r.recognised(dialect);
        return;
      }
    }
    Quota.attachExpiring(quotas, name, limit, remaining, reset);
    for (Quota q : quotas) q.addTo(r, dialect);
    r.recognised(dialect);
  }

  /** Envoy's {@code 10, 10;w=60;name="per-ip"}: the expiring limit, its policies into {@code quotas}. */
  private static long envoyLimit(Reading r, String text, List<Quota> quotas) {
    List<SfMember> list = StructuredFields.list(text);
    if (list == null || list.isEmpty() || !(list.get(0).value() instanceof Long)) {
      r.anomaly();
      return -1;
    }
    long limit = (Long) list.get(0).value();
    for (int k = 1; k < list.size(); k++) {
      Quota q = IetfDialect.integerQuota(r, list.get(k));
      if (q != null && q.windowMillis > 0) quotas.add(q);
    }
    if (limit < 0) { // a structured field's negative is malformed, never a limit of 0
      r.anomaly();
      return -1;
    }
    return limit;
  }

  static @Nullable String trimmed(@Nullable String s) {
    if (s == null) return null;
    String t = s.trim();
    return t.isEmpty() ? null : t;
  }
}
