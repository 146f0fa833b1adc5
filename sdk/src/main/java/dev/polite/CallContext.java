package dev.polite;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The call an event of a {@link PoliteListener} belongs to: its key, its request and its cost, so
 * a listener can tell one caller's waits and rejections from another's (a tag on the request, a
 * trace in its headers).
 *
 * <pre>{@code
 * public void rateLimited(CallContext call, RateLimitSignals s) {
 *   log.warn("{} was refused", call);   // GET https://api.example.com:443/... (its key)
 * }
 * }</pre>
 *
 * <p>Immutable; the request is the engine's own, seen through its {@link RequestView}.
 */
public final class CallContext {
  private final String key;
  private final RequestView request;
  private final double cost;
  private final @Nullable RequestCost reservation;

  private CallContext(String key, RequestView request, double cost,
      @Nullable RequestCost reservation) {
    this.key = Objects.requireNonNull(key, "key");
    this.request = Objects.requireNonNull(request, "request");
    this.cost = cost;
    this.reservation = reservation;
  }

  /**
   * The context of {@code request}, counted against {@code key} at {@code cost}.
   *
   * <pre>{@code CallContext.of("https://api.example.com:443", request, 1)}</pre>
   */
  public static CallContext of(String key, RequestView request, double cost) {
    return new CallContext(key, request, cost, null);
  }

  /** As {@link #of}, for a request whose cost is a reservation to settle. */
  static CallContext of(String key, RequestView request, double cost,
      @Nullable RequestCost reservation) {
    return new CallContext(key, request, cost, reservation);
  }

  /** The request's reservation, charged per attempt and settled by the application; or null. */
  @Nullable RequestCost reservation() {
    return reservation;
  }

  /** The key the request counts against, as the key function made it. */
  public String key() {
    return key;
  }

  /**
   * The request as the application made it; {@link RequestView#unwrap} gives the engine's own.
   */
  public RequestView request() {
    return request;
  }

  /** What the request costs, in its key's units. */
  public double cost() {
    return cost;
  }

  @Override
  public String toString() {
    return RequestView.redacted(request) + " (" + key + ")";
  }
}
