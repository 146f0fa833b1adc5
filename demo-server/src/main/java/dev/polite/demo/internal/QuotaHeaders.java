package dev.polite.demo.internal;

import dev.polite.demo.HeaderStyle;
import java.util.function.BiConsumer;

/**
 * Writes a decision as rate-limit headers in one dialect, on successes and rejections alike.
 *
 * <p>The numbers are chosen so that a client believing them is never refused by a token bucket
 * whose burst equals the advertised quota: {@code r} is the floor of what is available, and
 * {@code t} is the honest time until more quota is available, rounded up to whole seconds and at
 * least 1 when {@code r = 0} (so "pause t seconds, then pace at q/w" always finds a unit there).
 * {@code Retry-After} is likewise rounded up and never 0 on a rejection.
 *
 * <p>The IETF policy needs whole seconds: a window that is not a whole number of seconds is
 * advertised per second, with the quota rounded down (a client pacing on it errs slow).
 */
public final class QuotaHeaders {
  private static final long SECOND = 1_000_000_000L;

  private final HeaderStyle style;
  private final long quota;
  private final long windowSeconds;
  private final long limit;
  private final String policyHeader;

  public QuotaHeaders(HeaderStyle style, long limit, long windowNanos) {
    this.style = style;
    this.limit = limit;
    if (windowNanos % SECOND == 0) {
      this.quota = limit;
      this.windowSeconds = windowNanos / SECOND;
    } else {
      this.quota = Math.max(1, (long) Math.floor((double) limit * SECOND / windowNanos));
      this.windowSeconds = 1;
    }
    this.policyHeader = "\"default\";q=" + quota + ";w=" + windowSeconds;
  }

  /** Whole seconds, rounded up. */
  public static long seconds(long nanos) {
    return nanos <= 0 ? 0 : (nanos - 1) / SECOND + 1;
  }

  /** The {@code Retry-After} value for a rejection: whole seconds, rounded up, at least 1. */
  public static long retryAfterSeconds(Decision decision) {
    return Math.max(1, seconds(decision.retryAfterNanos()));
  }

  /** The {@code t} of a decision: seconds until more quota, at least 1 when none remains. */
  public static long resetSeconds(Decision decision) {
    long t = seconds(decision.nextUnitNanos());
    return decision.remaining() == 0 ? Math.max(1, t) : t;
  }

  /**
   * Writes the quota headers for {@code decision} (not {@code Retry-After}).
   *
   * @param epochMillis now, for the epoch reset of {@code x-ratelimit}
   */
  public void write(Decision decision, long epochMillis, BiConsumer<String, String> header) {
    long r = decision.remaining();
    long t = resetSeconds(decision);
    switch (style) {
      case IETF:
        header.accept("RateLimit-Policy", policyHeader);
        header.accept("RateLimit", "\"default\";r=" + r + ";t=" + t);
        break;
      case LEGACY:
        header.accept("RateLimit-Limit", Long.toString(limit));
        header.accept("RateLimit-Remaining", Long.toString(r));
        header.accept("RateLimit-Reset", Long.toString(t));
        break;
      case X_RATELIMIT:
        header.accept("x-ratelimit-limit", Long.toString(limit));
        header.accept("x-ratelimit-remaining", Long.toString(r));
        header.accept("x-ratelimit-used", Long.toString(Math.max(0, limit - r)));
        header.accept("x-ratelimit-reset", Long.toString(Math.floorDiv(epochMillis, 1000) + t));
        header.accept("x-ratelimit-resource", "api");
        break;
      case NONE:
      default:
        break;
    }
  }
}
