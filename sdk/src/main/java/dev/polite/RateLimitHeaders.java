package dev.polite;

import dev.polite.internal.headers.SignalsReader;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Reads what a response says about the caller's rate limit, in every dialect polite knows (the
 * IETF {@code RateLimit} fields of every draft, the {@code X-RateLimit-*} family and its vendor
 * variants, {@code Retry-After} and its kin): the same reading {@link Polite} learns from on
 * every engine, for code that wants to look at a response itself.
 *
 * <pre>{@code
 * RateLimitSignals signals = RateLimitHeaders.standard().parse(response);   // a ResponseView
 * if (signals.isRejection()) backOff(signals.retryAfter());
 * }</pre>
 *
 * <p>Never throws on what a server sends: malformed values are dropped, and values that cannot be
 * true are dropped and flagged {@linkplain RateLimitSignals#isAnomalous() anomalous}, never
 * clamped into a decision. Absolute times become delays against the response's {@code Date}
 * header. Immutable and thread-safe.
 */
public final class RateLimitHeaders {
  private static final RateLimitHeaders STANDARD = new RateLimitHeaders(SignalsReader.standard());

  private final SignalsReader reader;

  private RateLimitHeaders(SignalsReader reader) {
    this.reader = reader;
  }

  /**
   * The reader of every built-in dialect.
   *
   * <pre>{@code RateLimitHeaders.standard().parse(response)}</pre>
   */
  public static RateLimitHeaders standard() {
    return STANDARD;
  }

  /**
   * A reader that also runs {@code dialect} after the built-in ones (and after those added before
   * it).
   *
   * <pre>{@code RateLimitHeaders headers = RateLimitHeaders.standard().with(acmeDialect);}</pre>
   */
  public RateLimitHeaders with(RateLimitDialect dialect) {
    return new RateLimitHeaders(reader.with(Objects.requireNonNull(dialect, "dialect")));
  }

  /**
   * Reads one response's status and headers, on any engine (each adapter makes its answers
   * {@link ResponseView}s); a response without a {@code Date} header is read against the system
   * clock. Never throws.
   *
   * <pre>{@code RateLimitSignals signals = RateLimitHeaders.standard().parse(OkHttpResponseView.of(response));}</pre>
   */
  public RateLimitSignals parse(ResponseView response) {
    return parse(response.status(), response.headers(), System.currentTimeMillis());
  }

  /**
   * Reads a status and headers. Never throws.
   *
   * <pre>{@code headers.parse(429, HeaderLines.of("Retry-After", "3"), System.currentTimeMillis())}</pre>
   *
   * @param status the response's status code
   * @param headers all of the response's headers
   * @param nowEpochMillis the caller's wall clock, used only when the headers have no usable
   *     {@code Date}
   */
  public RateLimitSignals parse(int status, HeaderLines headers, long nowEpochMillis) {
    return reader.parse(status, headers, nowEpochMillis);
  }

  /**
   * Adds the retry hint of a JSON error body the caller chose to inspect (Discord's
   * {@code retry_after} in seconds, Matrix's {@code retry_after_ms}, and Discord's {@code global}).
   * The body's value, being precise, replaces a header delay that is its rounding; otherwise the
   * longer delay wins. Bodies that are not JSON are ignored. Never throws.
   *
   * <pre>{@code signals = headers.withBody(signals, contentType, theBodysFirstKilobytes);}</pre>
   *
   * @param signals what {@link #parse} read from the same response
   * @param contentType the response's {@code Content-Type}, or {@code null} when it had none
   * @param body the body text already peeked (a prefix is enough)
   */
  public RateLimitSignals withBody(RateLimitSignals signals, @Nullable String contentType,
      @Nullable String body) {
    return reader.withBody(signals, contentType, body);
  }
}
