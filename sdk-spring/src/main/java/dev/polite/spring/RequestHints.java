package dev.polite.spring;

import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * A request's hints for polite (its {@link dev.polite.RequestCost}, or a hint of your own that a
 * key function reads), carried in Spring's request attributes, each under its class's name:
 * what OkHttp's request tags are to polite-okhttp. {@code RestClient} and {@code WebClient} take
 * them with {@code attributes(...)}; a key or cost function reads them with
 * {@link dev.polite.RequestView#tag}.
 *
 * <pre>{@code
 * restClient.post().uri("/exports").attributes(RequestHints.of(RequestCost.of(5))).retrieve()...
 * }</pre>
 */
public final class RequestHints {
  private RequestHints() {}

  /** Files each of {@code hints} in a request's attributes under its class's name. */
  public static Consumer<Map<String, Object>> of(Object... hints) {
    Object[] copy = hints.clone();
    for (Object hint : copy) {
      Objects.requireNonNull(hint, "hint");
    }
    return attributes -> {
      for (Object hint : copy) {
        attributes.put(attributeName(hint.getClass()), hint);
      }
    };
  }

  /** The attribute a hint of {@code type} is filed under: the class's name. */
  public static String attributeName(Class<?> type) {
    return type.getName();
  }

  /** The hint of {@code type} in {@code attributes}, or null. */
  static <T> @Nullable T in(Map<String, Object> attributes, Class<? extends T> type) {
    Object hint = attributes.get(attributeName(type));
    return type.isInstance(hint) ? type.cast(hint) : null;
  }
}
