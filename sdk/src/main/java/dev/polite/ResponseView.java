package dev.polite;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * An answer as polite reads it, whichever HTTP engine received it: its status and its header
 * lines, known before any of its body is read. polite decides on this alone whether the answer
 * is returned or discarded, so an answer it retries is never read.
 *
 * <pre>{@code
 * RetryPolicy<ResponseView> failures = RetryPolicy.<ResponseView>builder()
 *     .handleResultIf(r -> r.status() >= 500)
 *     .withMaxAttempts(6)
 *     .build();
 * }</pre>
 *
 * <p>Implementations are immutable.
 */
public interface ResponseView {
  /** The status code: 200, 429. */
  int status();

  /** The header lines. */
  HeaderLines headers();

  /** The value of the first header named {@code name} (any case), or null. */
  default @Nullable String header(String name) {
    return headers().first(name);
  }

  /**
   * Whether the server sent this answer now: false for an answer a cache gave (OkHttp's cache),
   * which says nothing of the server's budget at this moment, so polite learns nothing from it.
   */
  default boolean fromServer() {
    return true;
  }

  /**
   * Up to {@code maxBytes} of the body's start as text, leaving the body readable for the caller;
   * null where the engine cannot look ahead in a body (the JDK client reads it only once). Asked
   * only of refusals, and only with {@code readRetryHintsFromBody}.
   */
  default @Nullable String bodyPrefix(int maxBytes) {
    return null;
  }

  /**
   * The engine's own answer behind this view, when it is a {@code type}; else null.
   *
   * <pre>{@code okhttp3.Response r = view.unwrap(okhttp3.Response.class);}</pre>
   */
  default <T> @Nullable T unwrap(Class<T> type) {
    return null;
  }

  /**
   * An answer of {@code status} with {@code headers}, from the server: for simulations, tests and
   * engines with nothing better.
   *
   * <pre>{@code ResponseView.of(429, HeaderLines.of("Retry-After", "3"))}</pre>
   */
  static ResponseView of(int status, HeaderLines headers) {
    if (status < 100 || status > 999) {
      throw new IllegalArgumentException("status must be three digits: " + status);
    }
    return new PlainResponse(status, Objects.requireNonNull(headers, "headers"));
  }
}

/** {@link ResponseView#of}'s answer. */
record PlainResponse(int status, HeaderLines headers) implements ResponseView {
  @Override
  public String toString() {
    return "PlainResponse{" + status + '}';
  }
}
