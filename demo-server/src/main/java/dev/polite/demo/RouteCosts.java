package dev.polite.demo;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Route costs, {@code --cost PREFIX=UNITS}: what a request under a path prefix costs in units.
 * Read from the command line's texts, checked whole (each refusal names {@code routeCost}, as the
 * builder's {@code routeCost} does), and looked up by path, the longest prefix winning.
 */
final class RouteCosts {
  private RouteCosts() {}

  /** Each {@code PREFIX=UNITS} read, in order; a prefix given twice keeps its last cost. */
  static Map<String, Integer> parse(List<String> texts) {
    Map<String, Integer> routes = new LinkedHashMap<>();
    for (String text : texts) {
      int eq = text.lastIndexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException("cost: expected PREFIX=UNITS, was '" + text + "'");
      }
      try {
        routes.put(text.substring(0, eq), Integer.parseInt(text.substring(eq + 1).trim()));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("cost: '" + text + "' has no whole number of units", e);
      }
    }
    return routes;
  }

  /**
   * {@code routes} as the configuration keeps it, unmodifiable, in order.
   *
   * @throws IllegalArgumentException naming {@code routeCost}, for a prefix that does not start
   *     with {@code /} or a cost below 1
   */
  static Map<String, Integer> check(Map<String, Integer> routes) {
    for (Map.Entry<String, Integer> route : routes.entrySet()) {
      String prefix = route.getKey();
      if (prefix == null || !prefix.startsWith("/")) {
        throw new IllegalArgumentException("routeCost: path prefix must start with '/', was '" + prefix + "'");
      }
      if (route.getValue() == null || route.getValue() < 1) {
        throw new IllegalArgumentException(
            "routeCost: cost of " + prefix + " must be at least 1, was " + route.getValue());
      }
    }
    return Collections.unmodifiableMap(new LinkedHashMap<>(routes));
  }

  /** The cost of a request to {@code path}: the longest matching prefix's, else 1. */
  static int costOf(Map<String, Integer> routes, String path) {
    Integer cost = Routes.longestMatch(routes, path);
    return cost == null ? 1 : cost;
  }
}
