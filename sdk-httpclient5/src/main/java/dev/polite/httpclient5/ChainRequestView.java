package dev.polite.httpclient5;

import dev.polite.RequestView;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpRequest;
import org.apache.hc.core5.http.protocol.HttpContext;
import org.apache.hc.core5.net.URIAuthority;
import org.jspecify.annotations.Nullable;

/**
 * An HttpClient 5 request as polite reads it, on either chain: its method, its target and headers
 * as HttpClient holds them (scheme, authority and path apart, so the default key makes no
 * {@link URI}), the hints {@link RequestHints} put in its context, and whether its body can be
 * sent again (which each chain answers for its own kind of body).
 *
 * <p>A handler's own view of a call is one of these, so that a call makes one object, not two.
 * HttpClient has set the request's scheme and authority by the time its chain runs.
 */
abstract class ChainRequestView implements RequestView {
  /** The request as it came to the handler; each attempt sends a copy of it. */
  abstract HttpRequest request();

  /** The call's context, where its hints are. */
  abstract HttpContext context();

  @Override
  public final String method() {
    return request().getMethod();
  }

  @Override
  public final URI uri() {
    try {
      return request().getUri();
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException("polite: the request's URI is malformed: " + e.getMessage(), e);
    }
  }

  @Override
  public final @Nullable String header(String name) {
    Header header = request().getFirstHeader(name);
    return header == null ? null : header.getValue();
  }

  @Override
  public final String scheme() {
    String scheme = request().getScheme();
    return scheme == null ? "http" : scheme.toLowerCase(Locale.ROOT);
  }

  @Override
  public final String host() {
    URIAuthority authority = request().getAuthority();
    if (authority == null) {
      return RequestView.super.host();
    }
    String host = authority.getHostName();
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1);
    }
    return host.toLowerCase(Locale.ROOT);
  }

  @Override
  public final int port() {
    URIAuthority authority = request().getAuthority();
    if (authority == null) {
      return RequestView.super.port();
    }
    int port = authority.getPort();
    return port != -1 ? port : "https".equals(scheme()) ? 443 : 80;
  }

  @Override
  public final String encodedPath() {
    String path = request().getPath();
    if (path == null || path.isEmpty()) {
      return "/";
    }
    int query = path.indexOf('?');
    return query == 0 ? "/" : query > 0 ? path.substring(0, query) : path;
  }

  @Override
  public final <T> @Nullable T tag(Class<? extends T> type) {
    return RequestHints.find(context(), type);
  }

  @Override
  public final <T> @Nullable T unwrap(Class<T> type) {
    return type.isInstance(request()) ? type.cast(request()) : null;
  }

  @Override
  public final String toString() {
    return RequestView.redacted(this);
  }
}
