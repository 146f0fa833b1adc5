package dev.polite.jdk;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * A JDK {@link HttpRequest} carrying hints for polite, as OkHttp's request tags do: a
 * {@link dev.polite.RequestCost} (the request's weight, or a reservation to settle), or anything
 * a key or cost function of yours reads with {@link dev.polite.RequestView#tag}. The JDK's
 * requests have no tags, so this one wraps a request and stands in for it: every client, polite
 * or not, sends it as the request it wraps.
 *
 * <pre>{@code
 * RequestCost cost = RequestCost.reserve(promptTokens + maxTokens);
 * HttpRequest request = HintedRequest.of(HttpRequest.newBuilder(uri).POST(body).build(), cost);
 * HttpResponse<String> response = polite.send(request, BodyHandlers.ofString());
 * cost.settle(usedTokens(response));
 * }</pre>
 *
 * <p>Immutable when its hints are.
 */
public final class HintedRequest extends HttpRequest {
  private final HttpRequest request;
  private final Map<Class<?>, Object> hints;

  private HintedRequest(HttpRequest request, Map<Class<?>, Object> hints) {
    this.request = request;
    this.hints = Map.copyOf(hints);
  }

  /**
   * {@code request} with {@code hints}, each filed under its own class (a {@code RequestCost}
   * under {@code RequestCost.class}); the hints of a {@code request} that is already hinted are
   * kept, and a hint of the same class replaces its.
   */
  public static HintedRequest of(HttpRequest request, Object... hints) {
    Objects.requireNonNull(request, "request");
    Map<Class<?>, Object> all = new HashMap<>();
    HttpRequest wrapped = request;
    if (request instanceof HintedRequest hinted) {
      all.putAll(hinted.hints);
      wrapped = hinted.request;
    }
    for (Object hint : hints) {
      all.put(Objects.requireNonNull(hint, "hint").getClass(), hint);
    }
    return new HintedRequest(wrapped, all);
  }

  /**
   * This request with {@code hint} filed under {@code type}, for a hint read by an interface or
   * supertype of its class.
   */
  public <T> HintedRequest with(Class<T> type, T hint) {
    Map<Class<?>, Object> more = new HashMap<>(hints);
    more.put(Objects.requireNonNull(type, "type"), type.cast(Objects.requireNonNull(hint, "hint")));
    return new HintedRequest(request, more);
  }

  /** The hint filed under {@code type}, or null. */
  public <T> @Nullable T hint(Class<? extends T> type) {
    @SuppressWarnings("unchecked")
    T hint = (T) hints.get(type);
    return hint;
  }

  /** The request this one stands in for. */
  public HttpRequest request() {
    return request;
  }

  @Override
  public Optional<BodyPublisher> bodyPublisher() {
    return request.bodyPublisher();
  }

  @Override
  public String method() {
    return request.method();
  }

  @Override
  public Optional<Duration> timeout() {
    return request.timeout();
  }

  @Override
  public boolean expectContinue() {
    return request.expectContinue();
  }

  @Override
  public URI uri() {
    return request.uri();
  }

  @Override
  public Optional<HttpClient.Version> version() {
    return request.version();
  }

  @Override
  public HttpHeaders headers() {
    return request.headers();
  }

  @Override
  public String toString() {
    return request + " " + hints.values();
  }
}
