package dev.polite.examples.clients;

import java.io.IOException;
import okhttp3.Interceptor;
import okhttp3.Response;

/**
 * The impatient peer (client 1 of {@code compare}): on a rate-limit rejection it closes the answer
 * and sends the request again at once, up to {@code maxAttempts} in all. It is here to show what
 * such a client costs the server: every retry is a request the server must refuse again, and a
 * token bucket refills far slower than a loop can ask.
 *
 * <p>Usage: {@code new OkHttpClient.Builder().addInterceptor(new RetryAtOnceInterceptor(6)).build()}
 */
final class RetryAtOnceInterceptor implements Interceptor {
  private final int maxAttempts;

  /** @param maxAttempts attempts in all, the first included; at least 1 */
  public RetryAtOnceInterceptor(int maxAttempts) {
    if (maxAttempts < 1) {
      throw new IllegalArgumentException("maxAttempts: must be at least 1, was " + maxAttempts);
    }
    this.maxAttempts = maxAttempts;
  }

  @Override
  public Response intercept(Chain chain) throws IOException {
    Response response = chain.proceed(chain.request());
    for (int attempt = 1; attempt < maxAttempts && RateLimitRejection.is(response); attempt++) {
      response.close();
      response = chain.proceed(chain.request());
    }
    return response;
  }
}
