package dev.polite;

import java.io.IOException;

/**
 * How an HTTP engine's adapter sends one attempt of a call, blocking, for {@link Polite#call}:
 * the seam between the core, which decides, and an engine, which only carries. polite asks for
 * one attempt at a time, and asks again for a retry.
 *
 * <p>The engine hands polite each answer's status and headers through the {@link Judge} before it
 * reads any body, and reads the body only when the judge keeps the answer. An answer polite does
 * not keep is not returned: the engine discards it unread (or polite calls {@link #discard} on
 * it), so a refusal polite retries costs no body and holds no connection.
 *
 * <pre>{@code
 * // OkHttp's interceptor: the answer comes whole, so it is judged, and closed if not kept
 * Response r = polite.call(view, timeout, chain.call()::isCanceled, new Exchange<Response>() {
 *   public Response send(Judge judge) throws IOException {
 *     Response response = chain.proceed(request);
 *     judge.keep(OkHttpResponseView.of(response));
 *     return response;
 *   }
 *   public void discard(Response response) { response.close(); }
 * });
 * }</pre>
 *
 * @param <R> the engine's answer
 */
public interface Exchange<R> {
  /**
   * Sends one attempt and returns the engine's answer, having called {@link Judge#keep} with it
   * exactly once, before reading its body. Throws what the engine throws when no answer came.
   */
  R send(Judge judge) throws IOException;

  /**
   * Lets go of an answer polite will not return (closes it); called for every answer the judge
   * did not keep. An engine that discarded the body when the judge said so has nothing to do.
   */
  void discard(R response);

  /**
   * polite's verdict on one answer, asked by the engine as its status and headers arrive: polite
   * learns from the answer here, and decides whether it is the call's answer.
   */
  @FunctionalInterface
  interface Judge {
    /**
     * Learns from {@code response} and says whether polite will return it: true, read its body
     * as the caller asked; false, discard it unread (polite retries the call, or gives up with
     * an exception). Never throws.
     */
    boolean keep(ResponseView response);
  }
}
