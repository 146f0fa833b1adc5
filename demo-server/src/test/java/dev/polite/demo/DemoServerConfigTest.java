package dev.polite.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class DemoServerConfigTest {

  @Test
  void validationNamesTheParameter() {
    assertThatThrownBy(() -> DemoServer.builder().limit(0)).hasMessageStartingWith("limit:");
    assertThatThrownBy(() -> DemoServer.builder().window(Duration.ZERO)).hasMessageStartingWith("window:");
    assertThatThrownBy(() -> DemoServer.builder().window(Duration.ofDays(10_000))).hasMessageStartingWith("window:");
    assertThatThrownBy(() -> DemoServer.builder().limit(1).window(Duration.ofDays(300)).burst(Long.MAX_VALUE / 2).build())
        .hasMessage("burst: 4611686018427387903 takes too long to refill at 1 per 25920000000000000 ns");
    assertThatThrownBy(() -> DemoServer.builder().port(70000)).hasMessageStartingWith("port:");
    assertThatThrownBy(() -> DemoServer.builder().store("postgres://x")).hasMessageStartingWith("store:");
    assertThatThrownBy(() -> DemoServer.builder().nodes(0)).hasMessageStartingWith("nodes:");
    assertThatThrownBy(() -> DemoServer.builder().maxKeys(0)).hasMessageStartingWith("maxKeys:");
    assertThatThrownBy(() -> DemoServer.builder().routeCost("api", 2)).hasMessageStartingWith("routeCost:");
    assertThatThrownBy(() -> DemoServer.builder().limit(3).routeCost("/api/big", 5).build())
        .hasMessageStartingWith("routeCost:");
    assertThatThrownBy(() -> DemoServer.builder().algorithm(Algorithm.LEAKY_QUEUE).store("redis://127.0.0.1:6379").build())
        .hasMessageStartingWith("algorithm:").hasMessageContaining("not supported with a Redis store");
    assertThatThrownBy(() -> Algorithm.parse("bucket")).hasMessageContaining("token-bucket|gcra");
    assertThatThrownBy(() -> DemoServer.builder().clockSkew(Duration.ofDays(-2))).hasMessageStartingWith("clockSkew:");
    assertThatThrownBy(() -> DemoServer.builder().clockSkew(null)).hasMessageStartingWith("clockSkew:");
    assertThatThrownBy(() -> DemoServer.builder().rejectStatus(500))
        .hasMessage("rejectStatus: must be 429 or 403, was 500");
    assertThatThrownBy(() -> DemoServer.builder().wrongResetEvery(1))
        .hasMessage("wrongResetEvery: must be 0 (off) or at least 2, was 1");
    assertThatThrownBy(() -> DemoServer.builder().wrongResetEvery(-2)).hasMessageStartingWith("wrongResetEvery:");
    assertThatThrownBy(() -> DemoServer.builder().blockFor(Duration.ofDays(2)))
        .hasMessage("blockFor: must be 0 (off) or 1 ms to 1 day, was PT48H");
    assertThatThrownBy(() -> DemoServer.builder().blockFor(Duration.ofNanos(1))).hasMessageStartingWith("blockFor:");
    assertThatThrownBy(() -> DemoServer.builder().blockFor(Duration.ofSeconds(-1))).hasMessageStartingWith("blockFor:");
    assertThatThrownBy(() -> DemoServer.builder().refuseAllRetryAfter(Duration.ofDays(2)))
        .hasMessage("refuseAllRetryAfter: must be 0 to 1 day, was PT48H");
    assertThatThrownBy(() -> DemoServer.builder().bogusRefusalEvery(1))
        .hasMessage("bogusRefusalEvery: must be 0 (off) or at least 2, was 1");
    assertThatThrownBy(() -> DemoServer.builder().bogusRetryAfter(Duration.ofSeconds(-1)))
        .hasMessage("bogusRetryAfter: must be 0 to 366 days, was PT-1S");
    assertThatThrownBy(() -> HeaderStyle.parse("shopify")).hasMessageContaining("retry-after-date").hasMessageContaining("used-limit");
  }

  @Test
  void derivesWithToBuilder() {
    DemoServerConfig base = DemoServer.builder().limit(5).window(Duration.ofSeconds(2)).build();
    DemoServerConfig derived = base.toBuilder().algorithm(Algorithm.GCRA).burst(8).build();
    assertThat(base.algorithm()).isEqualTo(Algorithm.TOKEN_BUCKET);
    assertThat(base.burst()).isEqualTo(5);
    assertThat(derived.limit()).isEqualTo(5);
    assertThat(derived.burst()).isEqualTo(8);
    assertThat(derived.costOf("/api/x")).isEqualTo(1);
  }

  @Test
  void budgetsAreCheckedAndNameWhatTheyRefuse() {
    Duration second = Duration.ofSeconds(1);
    assertThatThrownBy(() -> DemoServer.builder().budget("api/search", "search", 5, second))
        .hasMessage("budget: path prefix must start with '/', was 'api/search'");
    assertThatThrownBy(() -> DemoServer.builder().budget("/api/search", "search", 0, second))
        .hasMessage("budget: the limit of search must be at least 1, was 0");
    assertThatThrownBy(() -> DemoServer.builder().budget("/api/search", "search", 5, Duration.ZERO))
        .hasMessage("budget: the window of search must be 1 ms to 366 days, was PT0S");
    assertThatThrownBy(() -> DemoServer.builder().budget("/api/search", "search", 5, Duration.ofDays(400)))
        .hasMessageStartingWith("budget: the window of search must be 1 ms to 366 days");
    assertThatThrownBy(() -> DemoServer.builder().budget("/api/search", "search", 5, second)
        .budget("/api/find", "search", 5, second))
        .hasMessage("budget: the name 'search' is given twice, to /api/search and to /api/find");
    assertThatThrownBy(() -> DemoServer.builder().budget("/api/search", "search", 5, second)
        .budget("/api/search", "find", 5, second))
        .hasMessage("budget: the prefix /api/search is given twice");
    assertThatThrownBy(() -> DemoServer.builder().budget("/api/core", "core", 5, second))
        .hasMessageStartingWith("budget: 'core' names the main budget");
    assertThatThrownBy(() -> DemoServer.builder().budget("/api/search", "se arch", 5, second))
        .hasMessageStartingWith("budget: the name of /api/search must be 1 to 64 letters");
    assertThatThrownBy(() -> DemoServer.builder().budget("/api/search", "\"x\"", 5, second))
        .hasMessageStartingWith("budget: the name of /api/search");
    assertThatThrownBy(() -> DemoServer.builder().budget("/api/search", null, 5, second))
        .hasMessageStartingWith("budget: the name of /api/search");
    assertThatThrownBy(() -> DemoServer.builder().budget("/api/search", "search", 5, null))
        .hasMessageStartingWith("budget: the window of search");
  }

  @Test
  void aRequestSpendsTheBudgetOfTheLongestPrefixOrTheMainOne() {
    DemoServerConfig config = DemoServer.builder().limit(20)
        .budget("/api/search", "search", 30, Duration.ofMinutes(1))
        .budget("/api/search/code", "code", 10, Duration.ofMinutes(1)).build();
    assertThat(config.hasBudgets()).isTrue();
    assertThat(config.budgets().keySet()).containsExactly("/api/search", "/api/search/code");
    assertThat(config.budgetOf("/api/search/code/x")).isEqualTo(new Budget("code", 10, Duration.ofMinutes(1)));
    assertThat(config.budgetOf("/api/search?q=1").name()).isEqualTo("search");
    assertThat(config.budgetOf("/api/items")).as("the main budget").isNull();
    assertThat(config.toString()).contains("budget={/api/search=search:30/PT1M, /api/search/code=code:10/PT1M}");
    DemoServerConfig derived = config.toBuilder().limit(5).build();
    assertThat(derived.budgets()).isEqualTo(config.budgets());
    assertThat(DemoServer.builder().build().hasBudgets()).isFalse();
  }

  @Test
  void longestRoutePrefixWins() {
    DemoServerConfig config = DemoServer.builder().limit(10)
        .routeCost("/api/", 2).routeCost("/api/export", 5).build();
    assertThat(config.costOf("/api/export/7")).isEqualTo(5);
    assertThat(config.costOf("/api/items")).isEqualTo(2);
    assertThat(config.costOf("/health")).isEqualTo(1);
  }
}
