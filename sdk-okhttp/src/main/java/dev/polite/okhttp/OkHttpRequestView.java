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
 * <p>Immutable.
 */
public final class OkHttpRequestView implements RequestView {
  private final Request request;

  private OkHttpRequestView(Request request) {
    this.request = request;
  }

  /** The view of {@code request}. */
  public static OkHttpRequestView of(Request request) {
    return new OkHttpRequestView(Objects.requireNonNull(request, "request"));
  }

  /** The OkHttp request behind this view. */
  public Request request() {
    return request;
  }

  @Override
  public String method() {
    return request.method();
  }

  @Override
  public URI uri() {
    return request.url().uri();
  }

  @Override
  public String scheme() {
    return request.url().scheme();
  }

  @Override
  public String host() {
    return request.url().host();
  }

  @Override
  public int port() {
    return request.url().port();
  }

  @Override
  public String encodedPath() {
    return request.url().encodedPath();
  }

  @Override
  public @Nullable String header(String name) {
    return request.header(name);
  }

  @Override
  public <T> @Nullable T tag(Class<? extends T> type) {
    return request.tag(type);
  }

  @Override
  public boolean bodyRepeatable() {
    RequestBody body = request.body();
    return body == null || !body.isOneShot();
  }

  @Override
  public <T> @Nullable T unwrap(Class<T> type) {
    return type.isInstance(request) ? type.cast(request) : null;
  }

  @Override
  public String toString() {
    return request.method() + " " + request.url().redact();
  }
}
