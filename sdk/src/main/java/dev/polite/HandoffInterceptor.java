package dev.polite;

import java.io.IOException;
import okhttp3.Interceptor;
import okhttp3.Response;

/**
 * The {@link PoliteInterceptor} as a {@link PoliteCallFactory}'s calls meet it: it reads the
 * {@link Handoff} their requests carry and passes it on. It stands in the interceptor's place in
 * the factory's own copy of the client, so calls made on the application's client never look for
 * a tag they cannot carry.
 *
 * <p>Thread-safe, as the interceptor is.
 */
final class HandoffInterceptor implements Interceptor {
  private final PoliteInterceptor polite;

  HandoffInterceptor(PoliteInterceptor polite) {
    this.polite = polite;
  }

  @Override
  public Response intercept(Chain chain) throws IOException {
    return polite.intercept(chain, chain.request().tag(Handoff.class));
  }

  @Override
  public String toString() {
    return "HandoffInterceptor{" + polite + '}';
  }
}
