package dev.polite.examples.clients;

import dev.polite.examples.Pause;
import java.io.IOException;
import java.time.Duration;
import java.util.random.RandomGenerator;
import okhttp3.Interceptor;
import okhttp3.Response;

/**
 * The patient peer (client 2 of {@code compare}): on a rate-limit rejection it waits the server's
 * {@code Retry-After} plus a random extra of {@code uniform(0, min(8, 0.25 * 2^attempt))} seconds
 * (0.5, 1, 2, 4, 8 s caps), then tries again, up to {@code maxAttempts} in all. Honouring
 * Retry-After stops the hammering; the jitter keeps many such clients from all returning in the
 * same millisecond. It still learns nothing: each burst past the limit costs a rejection first.
 *
 * <p>Usage: {@code new OkHttpClient.Builder().addInterceptor(new RetryAfterJitterInterceptor(6, new Random())).build()}
 */
final class RetryAfterJitterInterceptor implements Interceptor {
  private final int maxAttempts;
  private final RandomGenerator random;

  /**
   * @param maxAttempts attempts in all, the first included; at least 1
   * @param random the jitter's source (a seeded one makes a run repeatable)
   */
  public RetryAfterJitterInterceptor(int maxAttempts, RandomGenerator random) {
    if (maxAttempts < 1) {
      throw new IllegalArgumentException("maxAttempts: must be at least 1, was " + maxAttempts);
    }
    this.maxAttempts = maxAttempts;
    this.random = random;
  }

  @Override
  public Response intercept(Chain chain) throws IOException {
    Response response = chain.proceed(chain.request());
    for (int attempt = 1; attempt < maxAttempts && RateLimitRejection.is(response); attempt++) {
      Duration wait = RetryAfter.of(response).plus(jitter(attempt));
      response.close();
      Pause.sleep(wait, chain.call());
      response = chain.proceed(chain.request());
    }
    return response;
  }

  /** Full jitter over a doubling cap: uniform(0, min(8, 0.25 * 2^attempt)) seconds. */
  Duration jitter(int attempt) {
    double capSeconds = Math.min(8.0, 0.25 * Math.pow(2, attempt));
    return Duration.ofNanos((long) (random.nextDouble() * capSeconds * 1e9));
  }
}
