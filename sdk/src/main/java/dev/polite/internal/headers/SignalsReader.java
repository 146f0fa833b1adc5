package dev.polite.internal.headers;

import dev.polite.HeaderLines;
import dev.polite.RateLimitDialect;
import dev.polite.RateLimitPolicy;
import dev.polite.RateLimitSignals;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Reads a response's rate-limit signals in every dialect polite knows into one
 * {@link RateLimitSignals}: the engine behind {@link dev.polite.RateLimitHeaders}, the public
 * entry point.
 *
 * <pre>{@code
 * RateLimitSignals s = SignalsReader.standard().parse(response.code(), response.headers(), wallClockMillis);
 * }</pre>
 *
 * <p>How: one pass files the header lines by name ({@link ResponseHeaders}); each dialect then
 * reads only fields that exist, choosing the unit by the header's name first, the value's shape
 * second, its magnitude last. Every dialect reports the quotas it saw
 * as policies; {@link Governing} picks the headline from all of them, whoever reported it, and the
 * governing policy's dialect names the result. Absolute times become delays against the response's
 * {@code Date} header, rounded up; without a usable {@code Date}, against {@code nowEpochMillis}.
 *
 * <p>Rejection: a 429; or a 403 that reports an exhausted quota or carries a retry delay (GitHub's
 * primary and secondary limits). A 503 with {@code Retry-After} carries the delay but is not a
 * rate-limit rejection.
 *
 * <p>Cached responses ({@code Age} above 0) are not learned from, as the IETF draft asks: their
 * quota fields (limit, remaining, reset, window, policies, bucket, scope, global) are dropped; the
 * retry delay (reduced by the age), the retry verdict, the rejection flag and the dialect are kept.
 *
 * <p>Never throws and never returns a negative, NaN or infinite value, a duration over a year, or a
 * remaining count above its policy's quota: malformed values are dropped, and values that cannot
 * be true are dropped and flagged {@linkplain RateLimitSignals#isAnomalous() anomalous}, never
 * clamped into a pause (the rules: {@link Plausible}). Immutable and thread-safe;
 * {@link #with(RateLimitDialect)} derives a parser with a user's dialect added.
 */
public final class SignalsReader {
  private static final SignalsReader STANDARD = new SignalsReader(new RateLimitDialect[0]);
  private static final RateLimitSignals REJECTED = RateLimitSignals.builder().rejection(true).build();
  private static final String DISCORD = "discord";

  private final RateLimitDialect[] dialects;

  private SignalsReader(RateLimitDialect[] dialects) {
    this.dialects = dialects;
  }

  /** The parser with every built-in dialect. */
  public static SignalsReader standard() {
    return STANDARD;
  }

  /**
   * A parser that also runs {@code dialect} after the built-in ones (and after those added before
   * it).
   *
   * <pre>{@code SignalsReader parser = SignalsReader.standard().with(acmeDialect);}</pre>
   */
  public SignalsReader with(RateLimitDialect dialect) {
    Objects.requireNonNull(dialect, "dialect");
    RateLimitDialect[] more = Arrays.copyOf(dialects, dialects.length + 1);
    more[dialects.length] = dialect;
    return new SignalsReader(more);
  }

  /**
   * Parses one response.
   *
   * @param status the response's status code
   * @param headers all of the response's headers
   * @param nowEpochMillis our wall clock, used only when the response has no usable {@code Date}
   */
  public RateLimitSignals parse(int status, HeaderLines headers, long nowEpochMillis) {
    try {
      return readUnguarded(status, headers, nowEpochMillis);
    } catch (RuntimeException | StackOverflowError bug) {
      // a parser bug must not fail the call: fall back to what the status alone says
      return status == 429 ? REJECTED : RateLimitSignals.none();
    }
  }

  /**
   * Adds the retry hint of a JSON error body the caller chose to inspect (Discord's
   * {@code retry_after} in seconds, Matrix's {@code retry_after_ms}, and Discord's {@code global}).
   * The body's value, being precise, replaces a header delay that is its rounding (Discord sends
   * {@code Retry-After: 65} with {@code "retry_after": 64.57}); otherwise the longer delay wins.
   * Bodies that are not JSON are ignored; never throws.
   *
   * <pre>{@code signals = parser.withBody(signals, response.header("Content-Type"), response.peekBody(4096).string());}</pre>
   *
   * @param signals what {@link #parse} read from the same response
   * @param contentType the response's {@code Content-Type}, or {@code null} when it had none
   * @param body the body text already peeked (a prefix is enough)
   */
  public RateLimitSignals withBody(RateLimitSignals signals, @Nullable String contentType, @Nullable String body) {
    try {
      if (body == null || body.isEmpty()) return signals;
      if (contentType != null && !contentType.toLowerCase(Locale.ROOT).contains("json")) return signals;
      JsonRetryAfter json = JsonRetryAfter.scan(body);
      if (json.millis < 0 && !json.global && !json.anomalous) return signals;
      RateLimitSignals.Builder b = signals.toBuilder();
      if (json.anomalous) b.anomalous(true);
      if (json.global) b.global(true);
      if (json.millis >= 0) {
        long bodyMillis = json.millis;
        Duration header = signals.retryAfter();
        long headerMillis = header == null ? -1 : header.toMillis();
        long chosen = headerMillis < 0 || (bodyMillis <= headerMillis && headerMillis - bodyMillis < 1000)
            ? bodyMillis : Math.max(headerMillis, bodyMillis);
        b.retryAfter(Duration.ofMillis(chosen));
      }
      if (RateLimitSignals.NO_DIALECT.equals(signals.dialect())
          || RetryAfter.DIALECT.equals(signals.dialect())) {
        b.dialect(json.fromMillisField ? "matrix" : DISCORD);
      }
      return b.build();
    } catch (RuntimeException bug) {
      return signals;
    }
  }

  /**
   * {@link #parse} without its guard, so that tests see a parser bug the guard would turn into
   * {@link RateLimitSignals#none()}.
   */
  RateLimitSignals readUnguarded(int status, HeaderLines headers, long nowEpochMillis) {
    ResponseHeaders h = ResponseHeaders.of(headers, dialects.length > 0);
    if (h == null) { // no rate-limit line at all, and no custom dialect to ask
      return status == 429 ? REJECTED : RateLimitSignals.none();
    }
    Reading r = new Reading(h, nowEpochMillis);
    RetryAfter.read(r);
    IetfDialect.read(r);
    XRateLimitDialect.read(r);
    XRateLimitHyphenDialect.read(r);
    OpenAiDialect.read(r);
    AnthropicDialect.read(r);
    ShopifyDialect.read(r);
    AzureDialect.read(r);
    SalesforceDialect.read(r);
    ZendeskDialect.read(r);
    HubSpotDialect.read(r);
    long age = ageSeconds(r); // before the flags are copied: an Age that cannot be true is flagged too

    RateLimitSignals.Builder b = RateLimitSignals.builder();
    String dialect = r.fallbackDialect();
    List<RateLimitPolicy> policies = r.policies();
    int governing = Governing.choose(policies); // among all, before the cap keeps some
    b.policies(r.keptPolicies(policies, governing));
    if (governing >= 0) {
      b.governedBy(policies.get(governing));
      dialect = r.policyDialect(governing);
    } else if (!policies.isEmpty()) {
      dialect = r.policyDialect(0);
    }
    b.bucket(r.bucket()).scope(r.scope()).global(r.global());
    if (r.retryAfterMillis() >= 0) b.retryAfter(Duration.ofMillis(r.retryAfterMillis()));
    b.shouldRetry(r.shouldRetry());
    b.anomalous(r.anomalous());
    b.dialect(dialect == null ? RateLimitSignals.NO_DIALECT : dialect);
    b.rejection(isRejection(status, governing >= 0 ? policies.get(governing) : null, r.retryAfterMillis() >= 0));
    RateLimitSignals signals = b.build();
    for (RateLimitDialect d : dialects) {
      signals = custom(d, status, headers, r, signals);
    }
    return age > 0 ? uncached(signals, age) : signals;
  }

  private static boolean isRejection(int status, @Nullable RateLimitPolicy governing, boolean retryAfter) {
    if (status == 429) return true;
    if (status != 403) return false;
    return retryAfter || (governing != null && governing.isSpent());
  }

  private static RateLimitSignals custom(RateLimitDialect d, int status, HeaderLines headers, Reading r, RateLimitSignals signals) {
    try {
      RateLimitSignals.Builder b = signals.toBuilder();
      if (!d.read(status, headers, r.baseMillis(), b)) return signals;
      String name = d.name();
      return b.dialect(name == null || name.isEmpty() ? "custom" : name).build();
    } catch (RuntimeException | LinkageError | StackOverflowError broken) {
      return signals;
    }
  }

  /**
   * The {@code Age} in whole seconds (at least 1 when above 0), or 0. An Age that cannot be true
   * (negative, over a year) is absent like any other delay: the response is read as fresh, and
   * its values still pass every plausibility rule.
   */
  private static long ageSeconds(Reading r) {
    String age = r.headers.first(Field.AGE);
    if (age == null) return 0;
    long millis = Delays.number(r, Numbers.milli(age, false), Delays.Unit.SECONDS);
    return millis <= 0 ? 0 : Math.max(1, millis / 1000);
  }

  private static RateLimitSignals uncached(RateLimitSignals s, long ageSeconds) {
    RateLimitSignals.Builder b = RateLimitSignals.builder()
        .rejection(s.isRejection())
        .shouldRetry(s.shouldRetry())
        .anomalous(s.isAnomalous())
        .dialect(s.dialect());
    Duration retry = s.retryAfter();
    if (retry != null) {
      Duration aged = retry.minusSeconds(ageSeconds); // both at most a year: no overflow
      b.retryAfter(aged.isNegative() ? Duration.ZERO : aged);
    }
    return b.build();
  }
}
