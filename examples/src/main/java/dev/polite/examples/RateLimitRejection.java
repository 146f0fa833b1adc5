package dev.polite.examples;

import java.util.Locale;
import java.util.regex.Pattern;
import okhttp3.Response;
import org.jspecify.annotations.Nullable;

/**
 * Tells whether an answer is the server refusing for a rate limit: a 429, or a 403 that carries
 * an exhausted limit (GitHub answers 403 with {@code x-ratelimit-remaining: 0}; IETF servers say
 * {@code RateLimit: "default";r=0}). The peers and the counters need the same answer, so it lives
 * in one place; a 403 without such a header is an ordinary refusal, not a rate limit.
 *
 * <p>Usage: {@code if (RateLimitRejection.is(response)) { ... }}
 */
public final class RateLimitRejection {
  private static final Pattern IETF_REMAINING_ZERO = Pattern.compile("(?:^|;)\\s*r\\s*=\\s*0\\s*(?:;|,|$)");

  private RateLimitRejection() {}

  /** Whether {@code response} refuses the request because a rate limit is spent. */
  public static boolean is(Response response) {
    int code = response.code();
    if (code == 429) {
      return true;
    }
    if (code != 403) {
      return false;
    }
    return isZero(response.header("x-ratelimit-remaining"))
        || isZero(response.header("RateLimit-Remaining"))
        || ietfRemainingZero(response.header("RateLimit"));
  }

  private static boolean isZero(@Nullable String value) {
    return value != null && value.trim().equals("0");
  }

  private static boolean ietfRemainingZero(@Nullable String value) {
    return value != null && IETF_REMAINING_ZERO.matcher(value.toLowerCase(Locale.ROOT)).find();
  }
}
