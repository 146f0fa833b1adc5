package dev.polite;

/**
 * Discovers a key's pace when its server advertises none: told of each answer, it says how
 * many requests per second the key may send. One controller serves one key.
 *
 * <p>polite consults a controller only while the server has not advertised a rate; an
 * advertised rate always wins. A controller need not be thread-safe: polite calls it under the
 * key's lock. Times are {@link Ticker} nanoseconds.
 *
 * <pre>{@code
 * PoliteInterceptor.builder().rateController(Aimd.builder().decreaseFactor(0.5).build())
 * }</pre>
 */
public interface RateController {
  /** Requests per second the key may send now; {@link Double#POSITIVE_INFINITY} for no limit. */
  double rate();

  /**
   * An answer that was not a rate-limit rejection.
   *
   * @param measuredSendRate the key's recent send rate, requests per second
   */
  void onSuccess(long nowNanos, double measuredSendRate);

  /**
   * A rate-limit rejection of a request sent after the controller's last cut (rejections of
   * requests already on the wire when it cut are not reported again).
   *
   * @param admittedRate what the server really admitted lately, requests per second: the key's
   *     accepts since the previous cut (or its first send), at most ten seconds back, over at least
   *     one second; 0 when it admitted none. This, not the send rate the server just refused, is
   *     the evidence of its limit.
   */
  void onRejection(long nowNanos, double admittedRate);

  /**
   * A request sent before the controller's last cut was admitted, and its answer came after the
   * refusal that cut: over many connections answers overtake each other, so the rate the cut was
   * told left out what the server had already admitted. The default ignores it.
   *
   * @param admittedRate the rate the last cut would have been told with this request counted
   *     (and those reported before it)
   */
  default void onAdmittedBeforeCut(long nowNanos, double admittedRate) {}

  /**
   * No discovery: keys whose servers advertise no rate stay unpaced (they still pause for a
   * Retry-After or a spent quota, and still retry).
   *
   * <pre>{@code PoliteInterceptor.builder().rateController(RateController.none())}</pre>
   */
  static Factory none() {
    return Unpaced.FACTORY;
  }

  /** Makes one controller per key. Implementations must be thread-safe. */
  @FunctionalInterface
  interface Factory {
    /** A new controller for a key nobody has heard from yet. */
    RateController create();
  }
}
