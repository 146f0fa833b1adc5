package dev.polite.demo;

import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A route table's one rule: of the path prefixes that {@code path} starts with, the longest wins.
 * Route costs ({@code --cost}) and route budgets ({@code --budget}) both look a request's path up
 * this way.
 */
final class Routes {
  private Routes() {}

  /** The value of the longest prefix of {@code path} in {@code routes}; null when none matches. */
  static <V> @Nullable V longestMatch(Map<String, V> routes, String path) {
    V found = null;
    int longest = -1;
    for (Map.Entry<String, V> route : routes.entrySet()) {
      if (path.startsWith(route.getKey()) && route.getKey().length() > longest) {
        longest = route.getKey().length();
        found = route.getValue();
      }
    }
    return found;
  }
}
