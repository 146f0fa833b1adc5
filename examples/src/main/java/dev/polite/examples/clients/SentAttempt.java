package dev.polite.examples.clients;

/**
 * One attempt the client put on the wire: when it left (nanoseconds after the run started) and
 * what came back. The report draws one dot per attempt, so it records retries too, not only calls.
 *
 * <p>Usage: {@code counter.attempts().forEach(a -> plot(a.sentNanos(), a.rejected()));}
 *
 * @param sentNanos when the attempt was sent, relative to the run's start
 * @param status the answer's status code, or 0 when the exchange failed with an I/O error
 * @param rejected whether the answer was a rate-limit rejection (see {@link RateLimitRejection})
 */
public record SentAttempt(long sentNanos, int status, boolean rejected) {

  /** Whether the server admitted it (a 2xx answer). */
  public boolean admitted() {
    return status >= 200 && status < 300;
  }

  /** When it was sent, in seconds after the run started. */
  public double sentSeconds() {
    return sentNanos / 1e9;
  }
}
