package dev.polite.httpclient5;

import java.util.Objects;
import org.apache.hc.core5.http.protocol.HttpContext;
import org.jspecify.annotations.Nullable;

/**
 * A request's hints for polite, carried in the {@link HttpContext} it is executed with, as OkHttp's
 * request tags carry them: a {@link dev.polite.RequestCost} (the request's weight, or a
 * reservation to settle), or anything a key or cost function of yours reads with
 * {@link dev.polite.RequestView#tag}. HttpClient copies the request before its chain runs, and a
 * copy keeps no attachments; the context is the call's own, the same for every attempt.
 *
 * <p>A hint of type {@code T} is the context attribute named {@code T}'s class name
 * ({@code "dev.polite.RequestCost"}): this class only spells that.
 *
 * <pre>{@code
 * RequestCost cost = RequestCost.reserve(promptTokens + maxTokens);
 * HttpClientContext context = RequestHints.attach(HttpClientContext.create(), cost);
 * try (ClassicHttpResponse response = client.executeOpen(null, post, context)) {
 *   cost.settle(usedTokens(response));
 * }
 * }</pre>
 */
public final class RequestHints {
  private RequestHints() {}

  /**
   * Files each of {@code hints} in {@code context} under its own class (a {@code RequestCost}
   * under {@code RequestCost.class}), replacing a hint of the same class; {@code context}, to go
   * on with.
   */
  public static <C extends HttpContext> C attach(C context, Object... hints) {
    Objects.requireNonNull(context, "context");
    for (Object hint : hints) {
      context.setAttribute(Objects.requireNonNull(hint, "hint").getClass().getName(), hint);
    }
    return context;
  }

  /**
   * Files {@code hint} in {@code context} under {@code type}, for a hint read by an interface or
   * supertype of its class; {@code context}, to go on with.
   */
  public static <C extends HttpContext, T> C attach(C context, Class<T> type, T hint) {
    Objects.requireNonNull(context, "context");
    context.setAttribute(Objects.requireNonNull(type, "type").getName(),
        type.cast(Objects.requireNonNull(hint, "hint")));
    return context;
  }

  /** The hint filed in {@code context} under {@code type}, or null (also when it is no {@code type}). */
  static <T> @Nullable T find(HttpContext context, Class<? extends T> type) {
    Object hint = context.getAttribute(type.getName());
    return type.isInstance(hint) ? type.cast(hint) : null;
  }
}
