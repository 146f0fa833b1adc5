package dev.polite.internal.budgets;

import static org.assertj.core.api.Assertions.assertThat;

import dev.polite.HeaderLines;
import dev.polite.RateLimitPolicy;
import dev.polite.RateLimitSignals;
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
    assertThat(Route.of(get("/search/code")).parent()).as("two segments: the family says it").isNull();
    assertThat(Route.of(get("/2/users/by/username/jack")).parent()).isEqualTo("GET /{id}/users/by/username/*");
    assertThat(Route.of(get("/")).exact()).isEqualTo("GET /");
    Route hostile = Route.of(get("/" + "a".repeat(10_000) + "/b/c/d/e/f/g/h/i/j"));
    assertThat(hostile.exact().length()).isLessThan(4 + Route.MAX_SEGMENTS * (Route.MAX_SEGMENT + 1) + 1);
  }

  // ---- budgets the server never names: told apart by their quotas ----

  private static RateLimitSignals quota(long limit, long remaining) {
    return RateLimitSignals.builder().addPolicy(RateLimitPolicy.builder("").quota(limit).remaining(remaining).build())
        .build();
  }

  private static RateLimitSignals policies(RateLimitPolicy... policies) {
    RateLimitSignals.Builder b = RateLimitSignals.builder();
    for (RateLimitPolicy p : policies) {
      b.addPolicy(p);
    }
    return b.build();
  }

  private String unnamed(String path, RateLimitSignals signals) {
    return budgets.answeredUnnamed(get(path), signals, false, spentBy(path, false));
  }

  @Test
  void answersReportingOneQuotaAreOneBudgetAndRememberNoRoute() {
    assertThat(unnamed("/repos/a", quota(900, 899))).isEqualTo(KEY);
    assertThat(unnamed("/users/b", quota(900, 850))).as("remaining counts change").isEqualTo(KEY);
    assertThat(budgets.toString()).contains("routes=0");
  }

  @Test
  void aRouteReportingAnotherQuotaIsABudgetOfItsOwnFamilyAndAll() {
    unnamed("/2/tweets", quota(900, 899));
    assertThat(unnamed("/2/users/by/username/x", quota(15, 14))).isEqualTo(KEY + " [15]");

    assertThat(spentBy("/2/users/by/username/y", false)).as("by its parent").isEqualTo(KEY + " [15]");
    assertThat(spentBy("/2/users/me", false)).as("by its family, /2/users/*").isEqualTo(KEY + " [15]");
    assertThat(spentBy("/2/tweets", false)).as("another family: the key's own").isEqualTo(KEY);
    assertThat(unnamed("/2/users/me", quota(900, 890))).as("its answer takes it back, and the family")
        .isEqualTo(KEY);
    assertThat(spentBy("/2/users/you", false)).isEqualTo(KEY);
    assertThat(spentBy("/2/users/by/username/y", false)).as("its parent is still the tight one's")
        .isEqualTo(KEY + " [15]");
    assertThat(unnamed("/2/lists", quota(15, 3))).as("another route of that quota: that budget")
        .isEqualTo(KEY + " [15]");
  }

  @Test
  void aRefusalReportingOnlyItsExhaustedPolicyFitsTheBudgetThatReportedBoth() {
    RateLimitPolicy requests = RateLimitPolicy.builder("requests").quota(3500).remaining(3000).build();
    RateLimitPolicy tokens = RateLimitPolicy.builder("tokens").quota(90000).remaining(0).unit("tokens").build();
    assertThat(unnamed("/v1/chat", policies(requests, tokens))).isEqualTo(KEY);
    assertThat(unnamed("/v1/chat", policies(tokens))).isEqualTo(KEY);
    assertThat(unnamed("/v1/embeddings", policies(requests))).isEqualTo(KEY);
    assertThat(budgets.toString()).contains("routes=0");
  }

  @Test
  void policiesNeverReportedTogetherAreBudgetsApart() {
    // Azure reports reads on reads and writes on writes, remaining counts only.
    RateLimitPolicy reads = RateLimitPolicy.builder("subscription-reads").remaining(11999).build();
    RateLimitPolicy writes = RateLimitPolicy.builder("subscription-writes").remaining(1199).build();
    assertThat(unnamed("/subscriptions/x/resources", policies(reads))).isEqualTo(KEY);
    assertThat(budgets.answeredUnnamed(RequestView.of("PUT",
        URI.create("https://api.github.com/deployments/d"), HeaderLines.empty()), policies(writes), false, KEY))
        .isEqualTo(KEY + " [subscription-writes]");
  }

  @Test
  void answersThatNameTheirBudgetsKeepTheUnnamedWhereTheyWent() {
    answered("/repos/a/b", "core");
    assertThat(unnamed("/search/x", quota(30, 29))).isEqualTo(KEY);
    assertThat(budgets.toString()).contains("others=[]");
  }

  @Test
  void unnamedBudgetsAreBoundedAsNamedOnesAre() {
    unnamed("/r/0", quota(1, 0));
    for (int i = 1; i < KeyBudgets.MAX_BUDGETS; i++) {
      assertThat(unnamed("/r" + i, quota(1 + i, 0))).isEqualTo(KEY + " [" + (1 + i) + "]");
    }
    assertThat(unnamed("/r99", quota(99, 0))).as("one too many: learned where it went").isEqualTo(KEY);
    assertThat(unnamed("/r98", RateLimitSignals.none())).isEqualTo(KEY);
  }
}
