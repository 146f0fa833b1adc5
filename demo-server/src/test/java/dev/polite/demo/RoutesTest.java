package dev.polite.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The route table: the longest prefix wins; costs and budgets read from text, checked whole. */
class RoutesTest {

  @Test
  void theLongestMatchingPrefixWinsWhateverTheOrder() {
    Map<String, String> routes = new LinkedHashMap<>();
    routes.put("/api/export/big", "longest");
    routes.put("/api/", "short");
    routes.put("/api/export", "middle");

    assertThat(Routes.longestMatch(routes, "/api/export/big/1")).isEqualTo("longest");
    assertThat(Routes.longestMatch(routes, "/api/export/7")).isEqualTo("middle");
    assertThat(Routes.longestMatch(routes, "/api/items")).isEqualTo("short");
    assertThat(Routes.longestMatch(routes, "/health")).isNull();
    assertThat(Routes.<String>longestMatch(Map.of(), "/api/items")).isNull();
  }

  @Test
  void aRouteCostIsTheLongestPrefixesElseOne() {
    Map<String, Integer> costs = RouteCosts.parse(List.of("/api/=2", "/api/export= 5"));

    assertThat(costs).containsExactly(Map.entry("/api/", 2), Map.entry("/api/export", 5));
    assertThat(RouteCosts.costOf(costs, "/api/export/7")).isEqualTo(5);
    assertThat(RouteCosts.costOf(costs, "/api/items")).isEqualTo(2);
    assertThat(RouteCosts.costOf(costs, "/health")).isEqualTo(1);
  }

  @Test
  void routeCostTextThatIsNotOneIsRefusedNamingTheFlag() {
    assertThatThrownBy(() -> RouteCosts.parse(List.of("/api/export")))
        .hasMessage("cost: expected PREFIX=UNITS, was '/api/export'");
    assertThatThrownBy(() -> RouteCosts.parse(List.of("/api/export=five")))
        .hasMessage("cost: '/api/export=five' has no whole number of units");
  }

  @Test
  void routeCostsAreCheckedWholeNamingTheSettingAndKeptUnmodifiable() {
    assertThatThrownBy(() -> RouteCosts.check(Map.of("api", 2)))
        .hasMessage("routeCost: path prefix must start with '/', was 'api'");
    assertThatThrownBy(() -> RouteCosts.check(Map.of("/api", 0)))
        .hasMessage("routeCost: cost of /api must be at least 1, was 0");

    Map<String, Integer> kept = RouteCosts.check(new LinkedHashMap<>(Map.of("/api", 3)));
    assertThatThrownBy(() -> kept.put("/x", 1)).isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void aRouteBudgetIsReadInOrderAndFoundByTheLongestPrefix() {
    Map<String, Budget> budgets = RouteBudgets.parse(List.of("/api/search=search:30/1m", "/api/search/code=code:10/1m"));

    assertThat(budgets.keySet()).containsExactly("/api/search", "/api/search/code");
    assertThat(budgets.get("/api/search")).isEqualTo(new Budget("search", 30, Duration.ofMinutes(1)));
    assertThat(RouteBudgets.budgetOf(budgets, "/api/search/code?q=x").name()).isEqualTo("code");
    assertThat(RouteBudgets.budgetOf(budgets, "/api/search/issues").name()).isEqualTo("search");
    assertThat(RouteBudgets.budgetOf(budgets, "/api/items")).as("the main budget").isNull();
  }

  @Test
  void routeBudgetTextThatIsNotOneIsRefusedNamingTheFlag() {
    assertThatThrownBy(() -> RouteBudgets.parse(List.of("search:30/1m")))
        .hasMessageStartingWith("budget: expected PREFIX=NAME:LIMIT/WINDOW");
    assertThatThrownBy(() -> RouteBudgets.parse(List.of("/a=x:1/1s", "/a=y:2/1s")))
        .hasMessage("budget: the prefix /a is given twice");
  }

  @Test
  void routeBudgetsAreCheckedWholeNamingTheSetting() {
    Duration minute = Duration.ofMinutes(1);
    assertThatThrownBy(() -> RouteBudgets.check(Map.of("api", new Budget("a", 1, minute))))
        .hasMessage("budget: path prefix must start with '/', was 'api'");
    assertThatThrownBy(() -> RouteBudgets.check(Map.of("/a", new Budget("has space", 1, minute))))
        .hasMessageStartingWith("budget: the name of /a must be 1 to 64 letters");
    assertThatThrownBy(() -> RouteBudgets.check(Map.of("/a", new Budget(Budget.MAIN, 1, minute))))
        .hasMessageStartingWith("budget: 'core' names the main budget");
    Map<String, Budget> twice = new LinkedHashMap<>();
    twice.put("/a", new Budget("same", 1, minute));
    twice.put("/b", new Budget("same", 1, minute));
    assertThatThrownBy(() -> RouteBudgets.check(twice))
        .hasMessage("budget: the name 'same' is given twice, to /a and to /b");
    assertThatThrownBy(() -> RouteBudgets.check(Map.of("/a", new Budget("a", 0, minute))))
        .hasMessage("budget: the limit of a must be at least 1, was 0");
    assertThatThrownBy(() -> RouteBudgets.check(Map.of("/a", new Budget("a", 1, Duration.ofDays(367)))))
        .hasMessageStartingWith("budget: the window of a must be 1 ms to 366 days");
  }
}
