package dev.polite;

import java.util.Objects;
import okhttp3.Call;
import okhttp3.Request;
import org.jspecify.annotations.Nullable;

/**
 * The call an event of a {@link PoliteListener} belongs to: its key, its request, its cost, and
 * the OkHttp {@link Call} that carries it, so a listener can tell one caller's waits and
 * rejections from another's (a tag on the request, a trace in its headers).
 *
 * <pre>{@code
 * public void rateLimited(CallContext call, RateLimitSignals s) {
 *   log.warn("{} {} was refused", call.request().method(), call.request().url());
 * }
 * }</pre>
 *
 * <p>Immutable; the request and call are OkHttp's own objects, shared as they are.
 */
public final class CallContext {
  private final String key;
  private final Request request;
  private final @Nullable Call call;
  private final double cost;
  private final @Nullable RequestCost reservation;

  private CallContext(String key, Request request, @Nullable Call call, double cost,
      @Nullable RequestCost reservation) {
    this.key = Objects.requireNonNull(key, "key");
    this.request = Objects.requireNonNull(request, "request");
    this.call = call;
    this.cost = cost;
    this.reservation = reservation;
  }

  /**
   * The context of {@code request}, counted against {@code key} at {@code cost}, on {@code call}
   * (null where there is none, as in a simulation).
   *
   * <pre>{@code CallContext.of("https://api.example.com:443", request, call, 1)}</pre>
   */
  public static CallContext of(String key, Request request, @Nullable Call call, double cost) {
    return new CallContext(key, request, call, cost, null);
  }

  /** As {@link #of}, for a request whose cost is a reservation to settle. */
  static CallContext of(String key, Request request, @Nullable Call call, double cost,
      @Nullable RequestCost reservation) {
    return new CallContext(key, request, call, cost, reservation);
  }

  /** The request's reservation, charged per attempt and settled by the application; or null. */
  @Nullable RequestCost reservation() {
    return reservation;
  }

  /** The key the request counts against, as the key function made it. */
  public String key() {
    return key;
  }

  /** The request as the application made it. */
  public Request request() {
    return request;
  }

  /**
   * The call: the application's own when it used {@link PoliteCallFactory}, else the call the
   * interceptor runs in; null where there is none.
   */
  public @Nullable Call call() {
    return call;
  }

  /** What the request costs, in its key's units. */
  public double cost() {
    return cost;
  }

  @Override
  public String toString() {
    return request.method() + " " + request.url().redact() + " (" + key + ")";
  }
}
