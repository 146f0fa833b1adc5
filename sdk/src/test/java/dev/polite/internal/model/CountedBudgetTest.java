package dev.polite.internal.model;

import static org.assertj.core.api.Assertions.assertThat;

import dev.polite.HeaderLines;
import dev.polite.RateLimitSignals;
import dev.polite.internal.headers.SignalsReader;
import org.junit.jupiter.api.Test;

/**
 * Which counts are a {@link CountedBudget}: requests left with no reset and no window, as the
 * dialects read them; a count with a reset or a window is an advertised pace's.
 */
class CountedBudgetTest {
  private static RateLimitSignals read(String... headers) {
    return SignalsReader.standard().parse(200, HeaderLines.of(headers), 1_735_689_600_000L);
  }

  @Test
  void shopifysCallLimitAndAzuresRemainingReadsAreCountsWithNoReset() {
    assertThat(CountedBudget.reports(read("X-Shopify-Shop-Api-Call-Limit", "3/40"))).isTrue();
    assertThat(CountedBudget.reports(read("x-ms-ratelimit-remaining-subscription-reads", "11999"))).isTrue();
  }

  @Test
  void aCountWithAResetOrAWindowIsNot() {
    assertThat(CountedBudget.reports(read("x-ratelimit-limit", "60", "x-ratelimit-remaining", "3",
        "x-ratelimit-reset", "1735689630"))).as("GitHub's").isFalse();
    assertThat(CountedBudget.reports(read("RateLimit-Policy", "\"default\";q=20;w=1",
        "RateLimit", "\"default\";r=3;t=1"))).as("IETF's").isFalse();
    assertThat(CountedBudget.reports(read("Retry-After", "1"))).as("no count").isFalse();
  }
}
