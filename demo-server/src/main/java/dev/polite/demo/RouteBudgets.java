package dev.polite.demo;

import java.time.Duration;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Route budgets, {@code --budget PREFIX=NAME:LIMIT/WINDOW}: the {@link Budget} the requests under a
 * path prefix spend. Read from the command line's texts, checked whole (each refusal names
 * {@code budget}, as the builder's {@code budget} does), and looked up by path, the longest prefix
 * winning. A budget's window obeys {@code --window}'s rule, its limit {@code --limit}'s; its name
 * must be a token a header can carry as it is, and neither its name nor its prefix may be given
 * twice ({@link Budget#MAIN} is the main budget's).
 */
final class RouteBudgets {
  /** The usage's shape of a budget, for the refusals of text that is not one. */
  private static final String SHAPE = "PREFIX=NAME:LIMIT/WINDOW, such as /api/search=search:30/1m";

  private static final Duration MILLISECOND = Duration.ofMillis(1);

  private RouteBudgets() {}

  /** Each {@code PREFIX=NAME:LIMIT/WINDOW} read, in order; a prefix given twice is refused here, where it is seen. */
  static Map<String, Budget> parse(List<String> texts) {
    Map<String, Budget> budgets = new LinkedHashMap<>();
    for (String text : texts) {
      int eq = text.lastIndexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException("budget: expected " + SHAPE + ", was '" + text + "'");
      }
      String prefix = text.substring(0, eq).trim();
      LimitText read = LimitText.parse("budget", SHAPE, text, eq + 1);
      if (budgets.put(prefix, new Budget(read.name(), read.limit(), read.window())) != null) {
        throw new IllegalArgumentException("budget: the prefix " + prefix + " is given twice");
      }
    }
    return budgets;
  }

  /**
   * {@code budgets} as the configuration keeps it, unmodifiable, in order.
   *
   * @throws IllegalArgumentException naming {@code budget}, for a prefix, name, limit or window it
   *     refuses, or a name given twice
   */
  static Map<String, Budget> check(Map<String, Budget> budgets) {
    Map<String, String> prefixOfName = new HashMap<>();
    for (Map.Entry<String, Budget> entry : budgets.entrySet()) {
      String prefix = entry.getKey();
      Budget budget = entry.getValue();
      if (prefix == null || !prefix.startsWith("/")) {
        throw new IllegalArgumentException("budget: path prefix must start with '/', was '" + prefix + "'");
      }
      if (budget == null) {
        throw new IllegalArgumentException("budget: the budget of " + prefix + " must not be null");
      }
      String name = budget.name();
      if (name == null || !name.matches("[A-Za-z0-9_.-]{1,64}")) {
        throw new IllegalArgumentException("budget: the name of " + prefix
            + " must be 1 to 64 letters, digits, '_', '.' or '-', was '" + name + "'");
      }
      if (name.equals(Budget.MAIN)) {
        throw new IllegalArgumentException("budget: '" + Budget.MAIN + "' names the main budget (--limit per "
            + "--window); give " + prefix + " another name");
      }
      String before = prefixOfName.put(name, prefix);
      if (before != null) {
        throw new IllegalArgumentException("budget: the name '" + name + "' is given twice, to " + before
            + " and to " + prefix);
      }
      if (budget.limit() < 1) {
        throw new IllegalArgumentException("budget: the limit of " + name + " must be at least 1, was "
            + budget.limit());
      }
      Duration window = budget.window();
      if (window == null || window.compareTo(MILLISECOND) < 0 || window.compareTo(Duration.ofDays(366)) > 0) {
        throw new IllegalArgumentException("budget: the window of " + name + " must be 1 ms to 366 days, was "
            + window);
      }
    }
    return Collections.unmodifiableMap(new LinkedHashMap<>(budgets));
  }

  /** The budget a request to {@code path} spends: the longest matching prefix's, or null for the main one. */
  static @Nullable Budget budgetOf(Map<String, Budget> budgets, String path) {
    return Routes.longestMatch(budgets, path);
  }
}
