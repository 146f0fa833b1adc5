package dev.polite;

import java.net.URI;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A request as polite reads it, whichever HTTP engine sends it: its method, its URI, its headers,
 * and the hints the application attached to it (a {@link RequestCost}, say). Key functions, cost
 * functions and listeners read requests through it, so one configuration serves every engine.
 * Each engine's adapter makes one per call over the engine's own request, and reads nothing it
 * is not asked for.
 *
 * <pre>{@code
 * RateLimitKey perTenant = request -> request.host() + " " + request.header("X-Tenant");
 * }</pre>
 *
 * <p>The parts of the URI have defaults read from {@link #uri()}; adapters override them where
 * their engine holds them apart, so the default key makes no {@link URI}. Implementations are
 * immutable.
 */
public interface RequestView {
  /** The method, upper case as sent: {@code GET}, {@code POST}. */
  String method();

  /** The request's whole URI. */
  URI uri();

  /** The value of the first header named {@code name} (any case), or null. */
  @Nullable String header(String name);

  /** The scheme, lower case: {@code https}. */
  default String scheme() {
    String scheme = uri().getScheme();
    return scheme == null ? "http" : scheme.toLowerCase(java.util.Locale.ROOT);
  }

  /**
   * The host, lower case as OkHttp's {@code HttpUrl.host()} gives it: an IPv6 address without its
   * brackets ({@code ::1}), so one host reads the same on every engine, and so does its key.
   */
  default String host() {
    String host = uri().getHost();
    if (host == null) {
      return "";
    }
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1);
    }
    return host.toLowerCase(java.util.Locale.ROOT);
  }

  /** The port, the scheme's default when the URI names none (443 for https, else 80). */
  default int port() {
    int port = uri().getPort();
    return port != -1 ? port : "https".equals(scheme()) ? 443 : 80;
  }

  /** The path as sent, still encoded, without the query: {@code /repos/a%20b}; {@code /} at least. */
  default String encodedPath() {
    String path = uri().getRawPath();
    return path == null || path.isEmpty() ? "/" : path;
  }

  /**
   * The hint of {@code type} the application attached to this request, or null: OkHttp's request
   * tags; on engines without tags, what their adapter documents (the JDK client's
   * {@code HintedRequest}).
   *
   * <pre>{@code RequestCost cost = request.tag(RequestCost.class);}</pre>
   */
  default <T> @Nullable T tag(Class<? extends T> type) {
    return null;
  }

  /**
   * Whether the request's body, if any, can be sent again: false for a body that is read as it
   * is sent (OkHttp's one-shot bodies; the JDK client's streams and publishers). polite never
   * resends such a request, not even after a refusal.
   */
  default boolean bodyRepeatable() {
    return true;
  }

  /**
   * The engine's own request behind this view, when it is a {@code type}; else null.
   *
   * <pre>{@code okhttp3.Request r = view.unwrap(okhttp3.Request.class);}</pre>
   */
  default <T> @Nullable T unwrap(Class<T> type) {
    return null;
  }

  /**
   * The request as text for logs: its method and its origin, the path left out as OkHttp's
   * {@code HttpUrl.redact()} leaves it ({@code GET https://api.example.com/...}), so no credential
   * or identifier in a URI reaches a log line.
   */
  static String redacted(RequestView request) {
    String scheme = request.scheme();
    String host = request.host();
    int port = request.port();
    boolean usual = port == ("https".equals(scheme) ? 443 : "http".equals(scheme) ? 80 : -1);
    return request.method() + " " + scheme + "://" + (host.indexOf(':') >= 0 ? "[" + host + "]" : host)
        + (usual ? "" : ":" + port) + "/...";
  }

  /**
   * A request of {@code method} to {@code uri} with {@code headers}, its body repeatable: for
   * simulations, tests and engines with nothing better.
   *
   * <pre>{@code RequestView.of("GET", URI.create("https://api.example.com/v1/items"), HeaderLines.empty())}</pre>
   */
  static RequestView of(String method, URI uri, HeaderLines headers) {
    Objects.requireNonNull(method, "method");
    Objects.requireNonNull(uri, "uri");
    Objects.requireNonNull(headers, "headers");
    if (!uri.isAbsolute() || uri.getHost() == null) {
      throw new IllegalArgumentException("uri must be absolute, with a host: " + uri);
    }
    return new PlainRequest(method, uri, headers);
  }
}

/** {@link RequestView#of}'s request. */
record PlainRequest(String method, URI uri, HeaderLines headers) implements RequestView {
  @Override
  public @Nullable String header(String name) {
    return headers.first(name);
  }

  @Override
  public String toString() {
    return RequestView.redacted(this);
  }
}
