package dev.polite.demo.internal;

import dev.polite.demo.Algorithm;
import dev.polite.demo.DemoServerConfig;
import io.netty.util.AsciiString;
import java.util.List;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * The header a client names its request's cost in ({@code --cost-header}), and what it may say:
 * a whole number of units from 1 to the bucket's capacity (more could never be admitted), or,
 * for the algorithms that take refunds, from -1 to minus the capacity: units reserved by an
 * earlier request and not used, given back. A language-model API works this way: a call
 * reserves its prompt plus its {@code max_tokens}, and the answer's usage settles it. A cost named
 * here is a reservation; a refund gives back at most what the key's reservations consumed and it
 * has not had back ({@link Reservations}), and what a request was charged without naming it
 * (by its route, or 1) is spent for good.
 *
 * <p>Immutable and thread-safe.
 */
final class CostHeader {
  /** The algorithms that take refunds, as a sentence names them: {@code token-bucket, gcra and leaky-meter}. */
  private static final String REFUNDERS = inWords(Algorithm.takingRefunds());

  private final AsciiString name;
  private final long capacity;
  private final boolean refunds;
  private final String algorithm;

  private CostHeader(AsciiString name, long capacity, boolean refunds, String algorithm) {
    this.name = name;
    this.capacity = capacity;
    this.refunds = refunds;
    this.algorithm = algorithm;
  }

  /** The header {@code config} names, or null when clients may not name a cost. */
  static @Nullable CostHeader of(DemoServerConfig config) {
    if (config.costHeader().isEmpty()) {
      return null;
    }
    return new CostHeader(AsciiString.cached(config.costHeader()),
        Policy.of(config).capacity(config.algorithm()), config.algorithm().takesRefunds(),
        config.algorithm().toString());
  }

  AsciiString name() {
    return name;
  }

  /** Whether the algorithm takes refunds, so that a named cost is a reservation. */
  boolean refunds() {
    return refunds;
  }

  /** Why {@code value} is not a cost this server takes, or null when it is one. */
  @Nullable String refusal(String value) {
    return refusal(value, capacity);
  }

  /**
   * Why {@code value} is not a cost a budget holding {@code capacity} takes (a route's own budget
   * may hold less than the main one), or null when it is one.
   */
  @Nullable String refusal(String value, long capacity) {
    long units;
    try {
      units = Long.parseLong(value.trim());
    } catch (NumberFormatException e) {
      return name + ": not a whole number of units: '" + shorten(value) + "'";
    }
    if (units == 0 || units > capacity || units < -capacity) {
      return name + ": must be 1 to " + capacity + " units, or -1 to -" + capacity
          + " to give units back; was " + units;
    }
    if (units < 0 && !refunds) {
      return name + ": " + algorithm + " takes no refunds (" + REFUNDERS + " do)";
    }
    return null;
  }

  private static String inWords(List<Algorithm> algorithms) {
    int last = algorithms.size() - 1;
    String first = algorithms.subList(0, last).stream().map(Algorithm::cliName).collect(Collectors.joining(", "));
    return last == 0 ? algorithms.get(0).cliName() : first + " and " + algorithms.get(last).cliName();
  }

  private static String shorten(String value) {
    return value.length() <= 40 ? value : value.substring(0, 40) + "...";
  }
}
