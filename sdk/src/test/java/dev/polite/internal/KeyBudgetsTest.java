package dev.polite.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.polite.HeaderLines;
import dev.polite.RequestView;
import java.net.URI;
import org.junit.jupiter.api.Test;

class KeyBudgetsTest {
  private static final String KEY = "https://api.github.com:443";
  private final KeyBudgets budgets = new KeyBudgets(KEY);

  private static RequestView get(String path) {
    return RequestView.of("GET", URI.create("https://api.github.com" + path), HeaderLines.empty());
  }

  private String spentBy(String path, boolean ownPaused) {
    return budgets.spentBy(get(path), () -> ownPaused);
  }

  private String answered(String path, String budget) {
    return budgets.answeredFor(get(path), budget, false, spentBy(path, false));
  }

  @Test
  void oneNamedBudgetIsTheKeysOwnAndRemembersNoRoute() {
    assertThat(answered("/repos/a/b", "core")).isEqualTo(KEY);
    assertThat(answered("/users/x", "core")).isEqualTo(KEY);

    assertThat(spentBy("/anything", true)).isEqualTo(KEY);
    assertThat(budgets.toString()).contains("routes=0");
  }

  @Test
  void aSecondBudgetSplitsItsRouteAndFamilyOff() {
    answered("/repos/a/b", "core");
    assertThat(answered("/search/issues?q=1", "search")).isEqualTo(KEY + " [search]");

    assertThat(spentBy("/search/issues?q=2", false)).isEqualTo(KEY + " [search]");
    assertThat(spentBy("/search/commits", false)).as("by its family").isEqualTo(KEY + " [search]");
    assertThat(spentBy("/repos/c/d", false)).isEqualTo(KEY);
    // An exact route beats its family: code search is a budget of its own.
    answered("/search/code", "code_search");
    assertThat(spentBy("/search/issues", false)).isEqualTo(KEY + " [search]");
    assertThat(spentBy("/search/code", false)).isEqualTo(KEY + " [code_search]");
  }

  @Test
  void whileTheOwnBudgetIsPausedAnUnknownRouteGoesThroughNewRoutes() {
    answered("/repos/a/b", "core");
    answered("/search/issues", "search");

    assertThat(spentBy("/users/u", true)).isEqualTo(KEY + " [new routes]");
    assertThat(spentBy("/users/u", false)).isEqualTo(KEY);
    String owner = budgets.answeredFor(get("/users/u"), "core", false, KEY + " [new routes]");
    assertThat(owner).isEqualTo(KEY);
    assertThat(spentBy("/users/v", true)).as("remembered, family and all").isEqualTo(KEY);
  }

  @Test
  void anAnswerThatNamesNoBudgetStaysWhereItWent() {
    answered("/repos/a/b", "core");
    answered("/search/issues", "search");

    assertThat(budgets.answeredFor(get("/search/issues"), null, false, KEY + " [search]"))
        .isEqualTo(KEY + " [search]");
  }

  @Test
  void budgetsPastTheBoundAndOverlongNamesAreLearnedWhereTheCallWent() {
    answered("/r/0", "own");
    for (int i = 1; i < KeyBudgets.MAX_BUDGETS; i++) {
      assertThat(answered("/r" + i, "b" + i)).isEqualTo(KEY + " [b" + i + "]");
    }
    assertThat(answered("/r99", "one-too-many")).isEqualTo(KEY);
    assertThat(answered("/r98", "x".repeat(KeyBudgets.MAX_NAME + 1))).isEqualTo(KEY);
  }

  @Test
  void routesAreBoundedLeastRecentlyUsedFirst() {
    answered("/a", "core");
    answered("/search", "search");
    for (int i = 0; i < 3 * KeyBudgets.MAX_ROUTES; i++) {
      answered("/s" + i + "/x", "search");
    }

    assertThat(budgets.toString()).contains("routes=" + KeyBudgets.MAX_ROUTES);
    assertThat(spentBy("/s" + (3 * KeyBudgets.MAX_ROUTES - 1) + "/x", false)).isEqualTo(KEY + " [search]");
    assertThat(spentBy("/s0/x", false)).as("forgotten: the key's own again").isEqualTo(KEY);
  }

  @Test
  void routesReadIdsAsOneAndStayShort() {
    assertThat(Route.of(get("/repos/1234/issues/9")).exact()).isEqualTo("GET /repos/{id}/issues/{id}");
    assertThat(Route.of(get("/things/3f2a9c1e-0b7d-4c55-9e1a-1234567890ab")).exact())
        .isEqualTo("GET /things/{id}");
    assertThat(Route.of(get("/search/code?q=a")).family()).isEqualTo("/search/*");
    assertThat(Route.of(get("/")).exact()).isEqualTo("GET /");
    Route hostile = Route.of(get("/" + "a".repeat(10_000) + "/b/c/d/e/f/g/h/i/j"));
    assertThat(hostile.exact().length()).isLessThan(4 + Route.MAX_SEGMENTS * (Route.MAX_SEGMENT + 1) + 1);
  }
}
