package dev.polite.internal.model;

import dev.polite.RateLimitSignals;

/**
 * What one answer says, decided once when it arrives, for every part of the key model to read:
 * the verdicts drawn from its status and signals.
 *
 * @param status the HTTP status
 * @param refused whether it is a rate-limit refusal (a 429, or what the signals read as one)
 * @param admitted whether the server took the call: not refused, and no 5xx
 * @param quotaSpent whether it reports the key's quota spent (remaining 0), refused or not
 * @param refusedInFlight whether it is a refusal of a cap on calls in flight, not of the pace: it
 *     came while other calls of the key were on the wire, and the pace cannot explain it (it
 *     names concurrent requests as its unit, or reports budget left, or reports nothing while
 *     the key's advertised pace had tokens to spare, or while the key knows no pace at all and
 *     its bare refusals have not shown one)
 */
public record Answer(int status, boolean refused, boolean admitted, boolean refusedInFlight, boolean quotaSpent) {

  /** The IETF quota unit of a cap on calls in flight. */
  static final String CONCURRENT_REQUESTS = "concurrent-requests";

  /**
   * Reads an answer.
   *
   * @param othersOnTheWire the key's other calls on the wire when this one went
   * @param notThePace whether the key's pace cannot explain a refusal that reports nothing: its
   *     advertised pace had a whole token to spare when the answer came, or it has no pace the
   *     server showed and its bare refusals have not shown one (a cap on calls in flight is then
   *     tried first, see {@link InFlightWindow}); read only for a refusal
   */
  static Answer of(int status, RateLimitSignals signals, int othersOnTheWire, boolean notThePace) {
    boolean refused = isRefusal(status, signals);
    boolean admitted = !refused && status < 500;
    boolean inFlight = refused && othersOnTheWire > 0 && !paceExplains(signals, notThePace);
    return new Answer(status, refused, admitted, inFlight, signals.isQuotaSpent());
  }

  /** Whether the server is overloaded (503): it asks for time, as a refusal does, but not of the pace. */
  boolean overloaded() {
    return status == 503;
  }

  /**
   * Whether the server asked the key to hold back: a refusal, an overload, or a spent quota. A
   * delay named on any other answer (a Retry-After on a success, advice for redirects and the
   * like) pauses nothing, and only such an answer to a long pause's probe ends the pause.
   */
  boolean holdsBack() {
    return refused || overloaded() || quotaSpent;
  }

  /** The one rule for a rate-limit refusal: a 429, or what the signals read as one. */
  public static boolean isRefusal(int status, RateLimitSignals signals) {
    return status == 429 || signals.isRejection();
  }

  /** Whether a refusal reports nothing of a budget: no count, no concurrency unit (a bare 429, or a Retry-After alone). */
  static boolean reportsNoBudget(RateLimitSignals signals) {
    return signals.remaining().isEmpty() && signals.policies().isEmpty();
  }

  private static boolean paceExplains(RateLimitSignals signals, boolean notThePace) {
    boolean namesConcurrency = signals.policies().stream()
        .anyMatch(p -> CONCURRENT_REQUESTS.equals(p.unit()) && p.isSpent());
    if (namesConcurrency) {
      return false;
    }
    if (signals.remaining().isPresent()) {
      return signals.remaining().getAsLong() <= 0; // budget left: not the budget that refused
    }
    return !notThePace;
  }
}
