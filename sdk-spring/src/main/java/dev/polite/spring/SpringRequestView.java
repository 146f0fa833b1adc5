package dev.polite.spring;

import dev.polite.RequestView;
import java.net.URI;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpRequest;

/**
 * A Spring request as polite reads it, from {@code RestClient} and {@code RestTemplate}
 * ({@link HttpRequest}) or from {@code WebClient} (its {@code ClientRequest}, read by
 * {@link PoliteExchangeFilter}, so that this class needs no WebFlux): its method, URI and
 * headers, and the hints in its attributes ({@link RequestHints}). Both bodies can be sent again:
 * an interceptor's body is the buffered bytes, and a {@code WebClient} request writes its body
 * anew on each exchange.
 *
 * @param request the engine's own request, for {@link #unwrap}
 */
record SpringRequestView(String method, URI uri, HttpHeaders headers, Map<String, Object> attributes,
    Object request) implements RequestView {

  /** {@code RestClient}'s and {@code RestTemplate}'s request, as an interceptor is given it. */
  static SpringRequestView of(HttpRequest request) {
    return new SpringRequestView(request.getMethod().name(), request.getURI(), request.getHeaders(),
        request.getAttributes(), request);
  }

  @Override
  public @Nullable String header(String name) {
    return headers.getFirst(name);
  }

  @Override
  public <T> @Nullable T tag(Class<? extends T> type) {
    return RequestHints.in(attributes, type);
  }

  @Override
  public <T> @Nullable T unwrap(Class<T> type) {
    return type.isInstance(request) ? type.cast(request) : null;
  }

  @Override
  public String toString() {
    return RequestView.redacted(this);
  }
}
