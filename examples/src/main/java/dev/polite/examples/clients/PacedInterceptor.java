package dev.polite.examples.clients;

import dev.polite.TokenBucket;
import dev.polite.examples.Pause;
import java.io.IOException;
import java.time.Duration;
import okhttp3.Interceptor;
import okhttp3.Response;

/**
 * The paced peer (client 3 of {@code compare}): a client-side token bucket, told the rate and burst
 * by hand, that makes each request wait for its token and never retries. Set a little under the
 * server's limit (4.5 per second against 5, burst 4 against 5) it is never refused, at the price of running slower
 * than the server allows, and of being wrong the day the limit changes.
 *
 * <p>Usage: {@code new OkHttpClient.Builder().addInterceptor(new PacedInterceptor(4.5, 4)).build()}
 */
final class PacedInterceptor implements Interceptor {
  private final TokenBucket bucket;

  /**
   * @param ratePerSecond tokens added per second; positive
   * @param burst the bucket's capacity, which it starts with; positive
   */
  public PacedInterceptor(double ratePerSecond, double burst) {
    if (!(ratePerSecond > 0) || Double.isInfinite(ratePerSecond)) {
      throw new IllegalArgumentException("rate: must be positive and finite, was " + ratePerSecond);
    }
    if (!(burst >= 1) || Double.isInfinite(burst)) {
      throw new IllegalArgumentException("burst: must be at least 1, was " + burst);
    }
    this.bucket = TokenBucket.full(ratePerSecond, burst, System.nanoTime());
  }

  @Override
  public Response intercept(Chain chain) throws IOException {
    // reserve() takes the token now and says how long to wait for it, so concurrent callers
    // queue in order instead of racing for the next token.
    Pause.sleep(Duration.ofNanos(bucket.reserve(1, System.nanoTime())), chain.call());
    return chain.proceed(chain.request());
  }
}
