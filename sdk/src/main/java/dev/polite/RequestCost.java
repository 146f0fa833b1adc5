package dev.polite;

import okhttp3.Request;

/**
 * How many units of a key's budget one request spends: 1 unless the request says otherwise.
 * Attach it as a tag, or give the interceptor a cost function instead.
 *
 * <p>Immutable and thread-safe.
 *
 * <pre>{@code
 * Request export = new Request.Builder().url(url).tag(RequestCost.class, RequestCost.of(5)).build();
 * }</pre>
 */
public final class RequestCost {
  private static final RequestCost ONE = new RequestCost(1);

  private final double units;

  private RequestCost(double units) {
    this.units = units;
  }

  /** A cost of {@code units}; positive and finite. */
  public static RequestCost of(double units) {
    if (!(units > 0) || Double.isInfinite(units)) {
      throw new IllegalArgumentException("units must be positive and finite: " + units);
    }
    return units == 1 ? ONE : new RequestCost(units);
  }

  /** The cost tagged on {@code request}, or 1. The default cost function. */
  public static double of(Request request) {
    RequestCost tagged = request.tag(RequestCost.class);
    return tagged == null ? 1 : tagged.units;
  }

  /** The units this cost spends. */
  public double units() {
    return units;
  }

  @Override
  public String toString() {
    return "RequestCost{" + units + '}';
  }
}
