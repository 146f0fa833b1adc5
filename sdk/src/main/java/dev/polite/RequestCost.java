package dev.polite;

import java.util.function.DoubleConsumer;
import org.jspecify.annotations.Nullable;

/**
 * How many units of a key's budget one request spends: 1 unless the request says otherwise.
 * Attach it to the request (OkHttp: as a tag; the JDK client: with {@code HintedRequest}), or
 * give polite a cost function instead.
 *
 * <pre>{@code
 * Request export = new Request.Builder().url(url).tag(RequestCost.class, RequestCost.of(5)).build();
 * HttpRequest upload = HintedRequest.of(HttpRequest.newBuilder(uri).build(), RequestCost.of(5));
 * }</pre>
 *
 * <h2>Reserve, then settle</h2>
 * Some costs are known only from the answer: a language-model API counts the tokens a call
 * really used, and a call must reserve the most it may use (its prompt plus {@code max_tokens}).
 * A {@linkplain #reserve reservation} is charged in full when the request is sent, like any
 * cost; {@link #settle} then tells polite what it really cost, and the unused part goes back to
 * the key's bucket at once, so the next call does not wait for tokens nobody used (or, when it
 * cost more, the excess is charged, and later calls wait for it).
 *
 * <pre>{@code
 * RequestCost cost = RequestCost.reserve(prompt + maxTokens);
 * Request request = new Request.Builder().url(url).post(body).tag(RequestCost.class, cost).build();
 * try (Response response = client.newCall(request).execute()) {
 *   long used = usage(response);   // e.g. the usage.total_tokens of the answer's JSON
 *   cost.settle(used);             // the unused tokens are the key's again, now
 * }
 * }</pre>
 *
 * A reservation settles the attempt that was sent last (the one whose answer you read); earlier
 * attempts the server refused stay charged, as polite charges every attempt. Waits already
 * computed are not shortened: the tokens given back serve the calls that reserve after it.
 *
 * <p>{@link #of} costs are immutable and may be shared; a reservation belongs to one request and
 * is thread-safe.
 */
public final class RequestCost {
  private static final RequestCost ONE = new RequestCost(1, false);

  private final double units;
  private final boolean reservation;
  // A reservation's account, guarded by this.
  private @Nullable DoubleConsumer account;
  private double charged;
  private boolean settled;

  private RequestCost(double units, boolean reservation) {
    this.units = units;
    this.reservation = reservation;
  }

  /** A cost of {@code units}; positive and finite. */
  public static RequestCost of(double units) {
    checkUnits(units);
    return units == 1 ? ONE : new RequestCost(units, false);
  }

  /**
   * A reservation of {@code units} (positive and finite) for one request, to {@link #settle}
   * when its answer tells what it really cost.
   *
   * <pre>{@code RequestCost cost = RequestCost.reserve(1_200 + 4_096);   // prompt + max_tokens}</pre>
   */
  public static RequestCost reserve(double units) {
    checkUnits(units);
    return new RequestCost(units, true);
  }

  /** The rule for every cost, tagged or a cost function's answer: positive and finite. */
  static void checkUnits(double units) {
    if (!(units > 0) || Double.isInfinite(units)) {
      throw new IllegalArgumentException("units must be positive and finite: " + units);
    }
  }

  /** The cost attached to {@code request}, or 1. The default cost function. */
  public static double of(RequestView request) {
    RequestCost tagged = request.tag(RequestCost.class);
    return tagged == null ? 1 : tagged.units;
  }

  /** The units this cost spends (for a reservation, the units reserved). */
  public double units() {
    return units;
  }

  /** Whether this is a {@linkplain #reserve reservation}, to be settled. */
  public boolean isReservation() {
    return reservation;
  }

  /**
   * The request really cost {@code actualUnits} (zero or more): what its last attempt was charged
   * beyond that goes back to its key's bucket now, and what it cost beyond the charge is taken
   * from it. Does nothing to the key when no attempt was sent.
   *
   * <pre>{@code cost.settle(response.usage().totalTokens())}</pre>
   *
   * @return the units given back to the key; negative when more were taken, 0 when no attempt
   *     was sent
   * @throws IllegalStateException when this is not a reservation, or is already settled
   * @throws IllegalArgumentException when {@code actualUnits} is negative or not finite
   */
  public double settle(double actualUnits) {
    if (!(actualUnits >= 0) || Double.isInfinite(actualUnits)) {
      throw new IllegalArgumentException("actualUnits must be zero or more and finite: " + actualUnits);
    }
    DoubleConsumer key;
    double unused;
    synchronized (this) {
      if (!reservation) {
        throw new IllegalStateException("only a RequestCost.reserve(...) is settled, not " + this);
      }
      if (settled) {
        throw new IllegalStateException("already settled: " + this);
      }
      settled = true;
      key = account;
      if (key == null) {
        return 0;
      }
      unused = charged - actualUnits;
    }
    key.accept(unused);
    return unused;
  }

  /**
   * polite sent an attempt of the request, charging its key {@code units}: a later
   * {@link #settle} gives back to (or takes from) {@code account}. Ignored once settled.
   */
  synchronized void charged(double units, DoubleConsumer account) {
    if (reservation && !settled) {
      this.charged = units;
      this.account = account;
    }
  }

  @Override
  public String toString() {
    return reservation ? "RequestCost{reserved " + units + '}' : "RequestCost{" + units + '}';
  }
}
