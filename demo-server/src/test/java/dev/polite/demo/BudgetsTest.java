package dev.polite.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * Several budgets on one host, as GitHub's {@code core} and {@code search}: end to end over HTTP
 * against the real server on an ephemeral loopback port, on a clock that stands still.
 */
class BudgetsTest extends ServedDemoTest {
  private static String header(HttpResponse<String> response, String name) {
    return response.headers().firstValue(name).orElse("none");
  }

  /** GitHub's shape: core and search, each spent on its own, each answer naming the one it counted against. */
  private DemoServerConfig.Builder github() {
    return DemoServer.builder().algorithm(Algorithm.FIXED_WINDOW).headers(HeaderStyle.X_RATELIMIT)
        .limit(3).window(Duration.ofSeconds(10)).budget("/api/search", "search", 2, Duration.ofSeconds(10));
  }

  @Test
  void twoBudgetsAreSpentApartAndEachAnswerNamesItsOwn() throws Exception {
    DemoServer server = start(github());

    List<HttpResponse<String>> search = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      search.add(get(server, "/api/search/issues?q=" + i));
    }
    assertThat(search).extracting(HttpResponse::statusCode).containsExactly(200, 200, 429);
    assertThat(search).extracting(r -> header(r, "x-ratelimit-resource")).containsOnly("search");
    assertThat(search).extracting(r -> header(r, "x-ratelimit-limit")).containsOnly("2");
    assertThat(search).extracting(r -> header(r, "x-ratelimit-remaining")).containsExactly("1", "0", "0");
    assertThat(search.get(2).body()).contains("\"violated-policies\":[\"search\"]", "\"limit\":\"rate\"");

    // search is spent; core is untouched by it
    List<HttpResponse<String>> core = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      core.add(get(server, "/api/items/" + i));
    }
    assertThat(core).extracting(HttpResponse::statusCode).containsExactly(200, 200, 200, 429);
    assertThat(core).extracting(r -> header(r, "x-ratelimit-resource")).containsOnly("core");
    assertThat(core).extracting(r -> header(r, "x-ratelimit-limit")).containsOnly("3");
    assertThat(core).extracting(r -> header(r, "x-ratelimit-remaining")).containsExactly("2", "1", "0", "0");
    assertThat(core).extracting(r -> header(r, "x-ratelimit-used")).containsExactly("1", "2", "3", "3");
    assertThat(core.get(3).body()).contains("\"violated-policies\":[\"core\"]");

    StatsSnapshot stats = server.stats();
    assertThat(stats.admitted()).isEqualTo(5);
    assertThat(stats.rejected()).isEqualTo(2);
    assertThat(stats.budgets().keySet()).containsExactly("core", "search");
    assertThat(stats.budget("core")).isEqualTo(new StatsSnapshot.BudgetCounts(3, 1));
    assertThat(stats.budget("search")).isEqualTo(new StatsSnapshot.BudgetCounts(2, 1));
    JsonNode json = JSON.readTree(get(server, "/stats").body());
    assertThat(json.at("/budgets/core/limit").asLong()).isEqualTo(3);
    assertThat(json.at("/budgets/core/admitted").asLong()).isEqualTo(3);
    assertThat(json.at("/budgets/core/prefix").isMissingNode()).as("the main budget claims no prefix").isTrue();
    assertThat(json.at("/budgets/search/prefix").asText()).isEqualTo("/api/search");
    assertThat(json.at("/budgets/search/limit").asLong()).isEqualTo(2);
    assertThat(json.at("/budgets/search/windowSeconds").asDouble()).isEqualTo(10.0);
    assertThat(json.at("/budgets/search/rejected").asLong()).isEqualTo(1);
    assertThat(json.at("/keys/ip:127.0.0.1/admitted").asLong()).as("per key, over both").isEqualTo(5);
  }

  @Test
  void aRefusalOfOneBudgetLeavesTheOtherAsItWas() throws Exception {
    DemoServer server = start(github());

    assertThat(get(server, "/api/items").statusCode()).isEqualTo(200);
    for (int i = 0; i < 5; i++) {
      get(server, "/api/search"); // 2 admitted, 3 refused
    }
    HttpResponse<String> core = get(server, "/api/items");
    assertThat(core.statusCode()).isEqualTo(200);
    assertThat(header(core, "x-ratelimit-remaining")).as("one core call before, this one now").isEqualTo("1");
    assertThat(header(core, "Retry-After")).isEqualTo("none");

    // and the other way round: core spent, search still has its own
    get(server, "/api/items");
    assertThat(get(server, "/api/items").statusCode()).isEqualTo(429);
    DemoServer fresh = start(github());
    for (int i = 0; i < 4; i++) {
      get(fresh, "/api/items");
    }
    HttpResponse<String> search = get(fresh, "/api/search");
    assertThat(search.statusCode()).isEqualTo(200);
    assertThat(header(search, "x-ratelimit-remaining")).isEqualTo("1");
  }

  @Test
  void eachClientKeyHasEachBudgetOfItsOwn() throws Exception {
    DemoServer server = start(github());

    assertThat(get(server, "/api/search", "X-Api-Key", "alice").statusCode()).isEqualTo(200);
    assertThat(get(server, "/api/search", "X-Api-Key", "alice").statusCode()).isEqualTo(200);
    assertThat(get(server, "/api/search", "X-Api-Key", "alice").statusCode()).isEqualTo(429);
    HttpResponse<String> bob = get(server, "/api/search", "X-Api-Key", "bob");
    assertThat(bob.statusCode()).isEqualTo(200);
    assertThat(header(bob, "x-ratelimit-remaining")).isEqualTo("1");
    assertThat(server.stats().apiKey("alice").rejected()).isEqualTo(1);
  }

  @Test
  void theIetfPolicyIsNamedByItsBudgetAndLegacyNamesNone() throws Exception {
    DemoServer ietf = start(DemoServer.builder().limit(4).window(Duration.ofSeconds(10))
        .budget("/api/search", "search", 2, Duration.ofSeconds(20)));
    HttpResponse<String> core = get(ietf, "/api/items");
    assertThat(header(core, "RateLimit-Policy")).isEqualTo("\"core\";q=4;w=10");
    assertThat(header(core, "RateLimit")).startsWith("\"core\";r=3;t=");
    get(ietf, "/api/search");
    HttpResponse<String> second = get(ietf, "/api/search");
    assertThat(header(second, "RateLimit-Policy")).isEqualTo("\"search\";q=2;w=20");
    assertThat(header(second, "RateLimit")).isEqualTo("\"search\";r=0;t=10"); // a token every 10 s
    HttpResponse<String> refused = get(ietf, "/api/search");
    assertThat(refused.statusCode()).isEqualTo(429);
    assertThat(header(refused, "RateLimit")).isEqualTo("\"search\";r=0;t=10");
    assertThat(header(refused, "Retry-After")).isEqualTo("10");

    DemoServer legacy = start(DemoServer.builder().limit(4).window(Duration.ofSeconds(10))
        .headers(HeaderStyle.LEGACY).budget("/api/search", "search", 2, Duration.ofSeconds(20)));
    HttpResponse<String> l = get(legacy, "/api/search");
    assertThat(header(l, "RateLimit-Limit")).as("the budget's numbers, with no name").isEqualTo("2");
    assertThat(header(l, "RateLimit-Remaining")).isEqualTo("1");
    assertThat(l.headers().map().keySet()).noneMatch(h -> h.toLowerCase().contains("resource")
        || h.toLowerCase().contains("policy"));
    assertThat(header(get(legacy, "/api/items"), "RateLimit-Limit")).isEqualTo("4");
  }

  /** X's API v2: each endpoint its own numbers under the same field names, no name anywhere. */
  @Test
  void unnamedBudgetsAnswerEachRouteWithItsOwnNumbersAndNoName() throws Exception {
    DemoServer x = start(github().headers(HeaderStyle.X_RATE_LIMIT).unnamedBudgets(true));
    HttpResponse<String> core = get(x, "/api/items");
    HttpResponse<String> search = get(x, "/api/search");
    assertThat(header(core, "x-rate-limit-limit")).isEqualTo("3");
    assertThat(header(core, "x-rate-limit-remaining")).isEqualTo("2");
    assertThat(header(search, "x-rate-limit-limit")).isEqualTo("2");
    assertThat(header(search, "x-rate-limit-remaining")).isEqualTo("1");
    assertThat(header(search, "x-rate-limit-reset")).isEqualTo(Long.toString(clock.instant().getEpochSecond() + 10));
    get(x, "/api/search");
    HttpResponse<String> refused = get(x, "/api/search");
    assertThat(refused.statusCode()).isEqualTo(429);
    assertThat(header(refused, "x-rate-limit-limit")).isEqualTo("2");
    assertThat(refused.body()).as("the body names none either").contains("\"violated-policies\":[\"default\"]")
        .doesNotContain("search");
    for (HttpResponse<String> answer : List.of(core, search, refused)) {
      assertThat(answer.headers().map().keySet()).noneMatch(h -> h.toLowerCase().contains("resource"));
    }
    assertThat(x.stats().budgets().keySet()).as("the server still tells them apart").containsExactly("core", "search");
    assertThat(x.stats().budget("search")).isEqualTo(new StatsSnapshot.BudgetCounts(2, 1));

    DemoServer github = start(github().unnamedBudgets(true));
    HttpResponse<String> unnamed = get(github, "/api/search");
    assertThat(header(unnamed, "x-ratelimit-limit")).isEqualTo("2");
    assertThat(header(unnamed, "x-ratelimit-resource")).isEqualTo("none");

    DemoServer ietf = start(DemoServer.builder().limit(4).window(Duration.ofSeconds(10)).unnamedBudgets(true)
        .budget("/api/search", "search", 2, Duration.ofSeconds(20)));
    assertThat(header(get(ietf, "/api/items"), "RateLimit-Policy")).isEqualTo("\"default\";q=4;w=10");
    HttpResponse<String> ietfSearch = get(ietf, "/api/search");
    assertThat(header(ietfSearch, "RateLimit-Policy")).isEqualTo("\"default\";q=2;w=20");
    assertThat(header(ietfSearch, "RateLimit")).startsWith("\"default\";r=1;");
  }

  @Test
  void withoutBudgetsTheOneBudgetIsNamedAsBefore() throws Exception {
    DemoServer github = start(DemoServer.builder().limit(1).window(Duration.ofSeconds(10)).headers(HeaderStyle.X_RATELIMIT));
    assertThat(header(get(github, "/api/search"), "x-ratelimit-resource")).isEqualTo("api");
    HttpResponse<String> refused = get(github, "/api/search");
    assertThat(refused.body()).contains("\"violated-policies\":[\"default\"]");
    assertThat(github.stats().budgets()).isEmpty();
    assertThat(JSON.readTree(get(github, "/stats").body()).has("budgets")).isFalse();
    DemoServer ietf = start(DemoServer.builder().limit(1).window(Duration.ofSeconds(10)));
    assertThat(header(get(ietf, "/api/search"), "RateLimit-Policy")).isEqualTo("\"default\";q=1;w=10");
  }

  @Test
  void theLongestPrefixWinsAndEveryOtherPathSpendsCore() throws Exception {
    DemoServer server = start(github().budget("/api/search/code", "code_search", 1, Duration.ofSeconds(10)));

    assertThat(header(get(server, "/api/search/code?q=x"), "x-ratelimit-resource")).isEqualTo("code_search");
    assertThat(get(server, "/api/search/code?q=y").statusCode()).isEqualTo(429);
    assertThat(header(get(server, "/api/search/issues"), "x-ratelimit-resource")).isEqualTo("search");
    assertThat(header(get(server, "/api/searching"), "x-ratelimit-resource")).as("a prefix, not a segment")
        .isEqualTo("search");
    assertThat(header(get(server, "/api/sea"), "x-ratelimit-resource")).isEqualTo("core");
    assertThat(header(get(server, "/api"), "x-ratelimit-resource")).isEqualTo("core");
  }

  @Test
  void routeCostsAndTheRejectStatusApplyInsideABudget() throws Exception {
    DemoServer server = start(github().rejectStatus(403).routeCost("/api/search/heavy", 2));

    HttpResponse<String> heavy = get(server, "/api/search/heavy");
    assertThat(heavy.statusCode()).isEqualTo(200);
    assertThat(header(heavy, "x-ratelimit-remaining")).isEqualTo("0");
    HttpResponse<String> refused = get(server, "/api/search");
    assertThat(refused.statusCode()).isEqualTo(403);
    assertThat(header(refused, "x-ratelimit-resource")).isEqualTo("search");
    assertThat(refused.body()).contains("\"status\":403", "\"violated-policies\":[\"search\"]");
    assertThat(get(server, "/api/items").statusCode()).isEqualTo(200);
    assertThatThrownBy(() -> github().routeCost("/api/search/heavy", 3).build())
        .hasMessageStartingWith("routeCost: /api/search/heavy costs 3 but budget search (/api/search) holds at most 2");
    assertThatThrownBy(() -> github().routeCost("/api/", 3).build()).as("a route over a budget's prefix")
        .hasMessageContaining("budget search");
  }

  /**
   * The cap on calls in flight is the key's as a whole: a search call is refused while a core call
   * is in flight. A 403 of the cap shows what the refused call's own budget last said.
   */
  @Test
  void theConcurrencyCapIsTheKeysOverEveryBudget() throws Exception {
    DemoServer server = start(github().limit(100).concurrency(1).latency(Duration.ofMillis(400)));
    List<HttpResponse<String>> secondThenFirst = secondWhileFirstInFlight(server, "/api/items", "/api/search");
    assertThat(secondThenFirst.get(0).statusCode()).isEqualTo(429);
    assertThat(secondThenFirst.get(0).body()).contains("concurrency");
    assertThat(secondThenFirst.get(1).statusCode()).isEqualTo(200);

    DemoServer github403 = start(github().limit(100).concurrency(1).latency(Duration.ofMillis(400)).rejectStatus(403));
    List<HttpResponse<String>> searches = secondWhileFirstInFlight(github403, "/api/search/slow", "/api/search");
    HttpResponse<String> secondary = searches.get(0);
    assertThat(secondary.statusCode()).isEqualTo(403);
    assertThat(secondary.body()).contains("\"limit\":\"concurrency\"");
    assertThat(header(secondary, "x-ratelimit-resource")).isEqualTo("search");
    assertThat(header(secondary, "x-ratelimit-remaining")).as("search's, not core's 99").isEqualTo("1");
    assertThat(header(secondary, "x-ratelimit-limit")).isEqualTo("2");
    assertThat(github403.stats().budget("search")).isEqualTo(new StatsSnapshot.BudgetCounts(1, 1));
  }

  @Test
  void theWrongResetCountsTheAnswersOfEveryBudget() throws Exception {
    long epoch = clock.instant().getEpochSecond();
    DemoServer server = start(github().wrongResetEvery(2));
    assertThat(header(get(server, "/api/items"), "x-ratelimit-reset")).isEqualTo(Long.toString(epoch + 10));
    assertThat(header(get(server, "/api/search"), "x-ratelimit-reset")).as("the server's 2nd answer")
        .isEqualTo(Long.toString(epoch + 17_280_000));
    assertThat(header(get(server, "/api/search"), "x-ratelimit-reset")).isEqualTo(Long.toString(epoch + 10));
  }

  private List<HttpResponse<String>> secondWhileFirstInFlight(DemoServer server, String first, String second)
      throws Exception {
    CompletableFuture<HttpResponse<String>> slow = http.sendAsync(
        HttpRequest.newBuilder(server.url().resolve(first)).build(), HttpResponse.BodyHandlers.ofString());
    long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
    while (server.stats().admitted() < 1 && System.nanoTime() < deadline) {
      Thread.onSpinWait();
    }
    HttpResponse<String> refused = get(server, second);
    return List.of(refused, slow.get());
  }
}
