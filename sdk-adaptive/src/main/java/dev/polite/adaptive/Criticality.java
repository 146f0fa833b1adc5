package dev.polite.adaptive;

import dev.polite.RequestView;

/**
 * How much a request matters when its server is overloaded: the SRE book's four levels. Tag a
 * request with one; untagged requests are {@link #CRITICAL}.
 *
 * <p>The throttle keeps one window per key, shared by every level (the server's capacity is
 * shared), and lets each level send up to its own multiple of the accepts:
 * {@code K_level = 1 + (K - 1) * share}, with shares 2, 1, 0.75 and 0.5 from
 * {@link #CRITICAL_PLUS} down to {@link #SHEDDABLE}. A lower level therefore starts being dropped
 * earlier (at a smaller excess of requests over accepts) and is always dropped at least as
 * often as a higher one; every level still sends while the server accepts everything (each
 * multiple is above 1), so shedding costs nothing when nothing is overloaded.
 *
 * <pre>{@code
 * Request prefetch = new Request.Builder().url(url).tag(Criticality.class, Criticality.SHEDDABLE).build();
 * HttpRequest jdkPrefetch = HintedRequest.of(HttpRequest.newBuilder(uri).build(), Criticality.SHEDDABLE);
 * }</pre>
 */
public enum Criticality {
  /** Serious user-visible impact if it fails. */
  CRITICAL_PLUS(2.0),
  /** The default: production traffic the service is provisioned for. */
  CRITICAL(1.0),
  /** Partial unavailability is expected: batch work, by default. */
  SHEDDABLE_PLUS(0.75),
  /** Frequent partial and occasional full unavailability is expected: prefetches, analytics. */
  SHEDDABLE(0.5);

  private final double share;

  Criticality(double share) {
    this.share = share;
  }

  /** This level's multiplier, given the throttle's multiplier {@code k} (for CRITICAL). */
  public double multiplier(double k) {
    return 1 + (k - 1) * share;
  }

  /** The level attached to {@code request} (a tag, a hint), or {@link #CRITICAL}. */
  public static Criticality of(RequestView request) {
    Criticality tagged = request.tag(Criticality.class);
    return tagged == null ? CRITICAL : tagged;
  }
}
