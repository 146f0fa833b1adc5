package dev.polite;

import java.util.concurrent.CompletableFuture;

/**
 * How an HTTP engine's adapter sends one attempt of a call without blocking, for
 * {@link Polite#callAsync}: as {@link Exchange}, with the answer in a future. polite sends the
 * next attempt only after this one's future completed.
 *
 * <pre>{@code
 * // the JDK client: the judge runs in the body handler, before the body is read
 * judge -> client.sendAsync(request, info -> judge.keep(JdkResponseView.of(info))
 *     ? handler.apply(info) : BodySubscribers.replacing(null))
 * }</pre>
 *
 * @param <R> the engine's answer
 */
public interface AsyncExchange<R> {
  /**
   * Sends one attempt; the future completes with the engine's answer, after the engine called
   * {@link Exchange.Judge#keep} with it exactly once before reading its body, or exceptionally
   * with what the engine failed with. Cancelling the future must cancel the attempt.
   */
  CompletableFuture<R> send(Exchange.Judge judge);

  /** As {@link Exchange#discard}: lets go of an answer polite will not return. */
  void discard(R response);
}
