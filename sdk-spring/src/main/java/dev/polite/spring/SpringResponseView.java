package dev.polite.spring;

import dev.polite.HeaderLines;
import dev.polite.ResponseView;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;

/**
 * A Spring answer as polite reads it, from an interceptor's {@code ClientHttpResponse} or a
 * filter's {@code ClientResponse}: its status and headers, known before its body is read.
 *
 * @param response the engine's own answer, for {@link #unwrap}
 */
record SpringResponseView(int status, HeaderLines headers, Object response) implements ResponseView {

  static SpringResponseView of(int status, HttpHeaders headers, Object response) {
    return new SpringResponseView(status, SpringHeaders.lines(headers), response);
  }

  @Override
  public <T> @Nullable T unwrap(Class<T> type) {
    return type.isInstance(response) ? type.cast(response) : null;
  }

  @Override
  public String toString() {
    return "SpringResponseView{" + status + '}';
  }
}
