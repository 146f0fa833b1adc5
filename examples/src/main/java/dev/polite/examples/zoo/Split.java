package dev.polite.examples.zoo;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The host's budgets and the cell's fixed mix of calls over them, one cycle after another (call
 * {@code i} takes slot {@code i mod cycle}): first {@code mainCalls} to {@link #PATH}, which
 * spends the main budget ({@code core}), then each route's calls to its prefix. GitHub's
 * {@code core} and {@code search}: {@code new Split(3, List.of(new Route("/api/search", "search", 5, 1 s, 1)))},
 * 3 calls in 4 to core, 1 in 4 to search.
 *
 * @param mainCalls the main budget's calls per cycle, at least 1
 * @param routes the routes with budgets of their own, in the order they are given to the server
 * @param named whether the answers name their budget; false for X's API v2, whose answers give each
 *     route's own numbers under the same names ({@code --unnamed-budgets})
 */
record Split(int mainCalls, List<Route> routes, boolean named) {
  /** The path every call of a row with one budget goes to, and a row of several budgets sends its main share to. */
  public static final String PATH = "/api/items";

  /** One budget: every call to {@link #PATH}. */
  public static final Split NONE = new Split(1, List.of());

  public Split {
    if (mainCalls < 1) {
      throw new IllegalArgumentException("mainCalls: must be at least 1, was " + mainCalls);
    }
    routes = List.copyOf(routes);
  }

  /** Budgets the answers name, as GitHub's {@code x-ratelimit-resource} does. */
  public Split(int mainCalls, List<Route> routes) {
    this(mainCalls, routes, true);
  }

  /** The same budgets and mix, the answers naming none. */
  public Split unnamed() {
    return new Split(mainCalls, routes, false);
  }

  /** Whether the host has one budget only. */
  public boolean none() {
    return routes.isEmpty();
  }

  /** Calls per cycle of the mix. */
  public int cycle() {
    return mainCalls + routes.stream().mapToInt(Route::calls).sum();
  }

  /** The paths of one cycle, in order: the main budget's, then each route's. */
  List<String> paths() {
    List<String> paths = new ArrayList<>(Collections.nCopies(mainCalls, PATH));
    for (Route route : routes) {
      paths.addAll(Collections.nCopies(route.calls(), route.prefix()));
    }
    return paths;
  }

  /** How many of {@code requests} calls spend the main budget. */
  int mainShare(int requests) {
    return Floor.roundRobinShare(requests, cycle(), 0, mainCalls);
  }

  /** How many of {@code requests} calls spend route {@code index}'s budget. */
  int routeShare(int requests, int index) {
    int from = mainCalls;
    for (int i = 0; i < index; i++) {
      from += routes.get(i).calls();
    }
    return Floor.roundRobinShare(requests, cycle(), from, from + routes.get(index).calls());
  }
}
