package dev.polite.examples.clients;

import dev.polite.RateLimitHeaders;
import dev.polite.ResponseView;
import dev.polite.okhttp.OkHttpResponseView;
import okhttp3.Response;

/**
 * Tells whether an answer is the server refusing for a rate limit: a 429, or a 403 that the sdk's
 * header parser reads as a rate-limit rejection (GitHub answers 403 with
 * {@code x-ratelimit-remaining: 0}; IETF servers say {@code RateLimit: "default";r=0}; every
 * dialect polite knows counts). The peers and the counters need the same answer, so it lives in
 * one place; a 403 without such a signal is an ordinary refusal, not a rate limit.
 *
 * <p>Usage: {@code if (RateLimitRejection.is(response)) { ... }}
 */
final class RateLimitRejection {
  private RateLimitRejection() {}

  /** Whether {@code response} refuses the request because a rate limit is spent. */
  public static boolean is(Response response) {
    return is(OkHttpResponseView.of(response));
  }

  /** As above, for an answer as any engine shows it (or as a relay read it off the wire). */
  public static boolean is(ResponseView response) {
    int code = response.status();
    if (code == 429) {
      return true;
    }
    return code == 403 && RateLimitHeaders.standard().parse(response).isRejection();
  }
}
