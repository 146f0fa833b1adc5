package dev.polite.okhttp;

import dev.polite.RequestView;
import java.net.URI;
import java.util.Objects;
import okhttp3.HttpUrl;
import okhttp3.Request;
import okhttp3.RequestBody;
import org.jspecify.annotations.Nullable;

/**
 * An OkHttp {@link Request} as polite reads it: its URL's parts straight from OkHttp's
 * {@link HttpUrl} (no {@link URI} made unless asked), its headers, its tags as polite's hints, and
 * whether its body is {@linkplain RequestBody#isOneShot() one-shot}.
 *
 * <pre>{@code String key = RateLimitKey.host().keyOf(OkHttpRequestView.of(request));}</pre>
 *
 * <p>Immutable. Not to be extended outside this package (its constructor is the package's): the
 * interceptor's own view of a call is one, reading its request from the chain, so that a call
 * makes one object, not two, on a path every call takes.
 */
public abstract class OkHttpRequestView implements RequestView {
  OkHttpRequestView() {}

  /** The view of {@code request}. */
  public static OkHttpRequestView of(Request request) {
    return new Plain(Objects.requireNonNull(request, "request"));
  }

  /** The OkHttp request behind this view. */
  public abstract Request request();

  @Override
  public final String method() {
    return request().method();
  }

  @Override
  public final URI uri() {
    return request().url().uri();
  }

  @Override
  public final String scheme() {
    return request().url().scheme();
  }

  @Override
  public final String host() {
    return request().url().host();
  }

  @Override
  public final int port() {
    return request().url().port();
  }

  @Override
  public final String encodedPath() {
    return request().url().encodedPath();
  }

  @Override
  public final @Nullable String header(String name) {
    return request().header(name);
  }

  @Override
  public final <T> @Nullable T tag(Class<? extends T> type) {
    return request().tag(type);
  }

  @Override
  public final boolean bodyRepeatable() {
    RequestBody body = request().body();
    return body == null || !body.isOneShot();
  }

  @Override
  public final <T> @Nullable T unwrap(Class<T> type) {
    return type.isInstance(request()) ? type.cast(request()) : null;
  }

  @Override
  public final String toString() {
    return request().method() + " " + request().url().redact();
  }

  /** A view holding its request. */
  private static final class Plain extends OkHttpRequestView {
    private final Request request;

    Plain(Request request) {
      this.request = request;
    }

    @Override
    public Request request() {
      return request;
    }
  }
}
