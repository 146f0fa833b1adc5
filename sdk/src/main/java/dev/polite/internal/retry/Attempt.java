package dev.polite.internal.retry;

import dev.polite.RateLimitSignals;
import dev.polite.ResponseView;
import dev.polite.internal.model.Answer;
import java.io.IOException;
import org.jspecify.annotations.Nullable;

/**
 * The outcome of one attempt, as the retry policy judges it: an answer with its signals, or the
 * I/O error that took its place.
 *
 * @param response the answer, or null when {@code failure} is set
 * @param failure the I/O error, or null when {@code response} is set
 * @param retryable whether the retry rules would try again
 * @param at when the outcome was known, on the key's ticker
 */
public record Attempt(
    @Nullable ResponseView response,
    @Nullable IOException failure,
    RateLimitSignals signals,
    boolean retryable,
    long at) {

  /** Whether the answer is a rate-limit rejection: a 429, or what the signals read as one. */
  public boolean rateLimited() {
    return response != null && isRefusal(response, signals);
  }

  /** The rule for a rate-limit refusal, {@link Answer#isRefusal}, for a response. */
  static boolean isRefusal(ResponseView response, RateLimitSignals signals) {
    return Answer.isRefusal(response.status(), signals);
  }
}
