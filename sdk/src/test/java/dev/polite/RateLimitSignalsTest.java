package dev.polite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.polite.HeaderLines;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The headline is the governing policy, and "spent" has one rule. */
class RateLimitSignalsTest {
  private static final long NOW = 1_767_225_600_000L; // 2026-01-01T00:00:00Z

  @Test
  void theHeadlineIsTheGoverningPolicy() {
    RateLimitSignals s = RateLimitHeaders.standard().parse(200, HeaderLines.of(
        "RateLimit-Policy", "\"burst\";q=10;w=1, \"day\";q=1000;w=86400",
        "RateLimit", "\"day\";r=3;t=600"), NOW);

    assertThat(s.governing()).isNotNull();
    assertThat(s.governing().name()).isEqualTo("day");
    assertThat(s.limit()).hasValue(s.governing().quota().getAsLong());
    assertThat(s.remaining()).hasValue(3);
    assertThat(s.policyName()).isEqualTo("day");
    assertThat(s.policies()).contains(s.governing());
    assertThat(s.isQuotaSpent()).isFalse();
  }

  @Test
  void aSpentQuotaIsSpentEverywhereItIsAsked() {
    RateLimitSignals s = RateLimitHeaders.standard().parse(403, HeaderLines.of(
        "x-ratelimit-limit", "60", "x-ratelimit-remaining", "0",
        "x-ratelimit-reset", Long.toString(NOW / 1000 + 30)), NOW);

    assertThat(s.governing().isSpent()).isTrue();
    assertThat(s.isQuotaSpent()).isTrue();
    assertThat(s.isRejection()).as("a 403 reporting a spent quota is a refusal").isTrue();
    assertThat(s.reset()).isEqualTo(Duration.ofSeconds(30));
  }

  @Test
  void noPolicyMeansNoHeadline() {
    RateLimitSignals s = RateLimitHeaders.standard().parse(429, HeaderLines.of("Retry-After", "2"), NOW);

    assertThat(s.governing()).isNull();
    assertThat(s.limit()).isEmpty();
    assertThat(s.quotaUnit()).isNull();
    assertThat(s.isQuotaSpent()).isFalse();
    assertThat(s.advertisesRate()).isFalse();
    assertThat(s.retryAfter()).isEqualTo(Duration.ofSeconds(2));
  }

  @Test
  void headlineSettersEditTheGoverningPolicy() {
    RateLimitPolicy day = RateLimitPolicy.builder("day").quota(100).window(Duration.ofSeconds(100)).build();
    RateLimitSignals s = RateLimitSignals.builder().governedBy(day).remaining(0).build();

    assertThat(s.governing().name()).isEqualTo("day");
    assertThat(s.governing().remaining()).hasValue(0);
    assertThat(s.isQuotaSpent()).isTrue();
    assertThat(s.advertisedRatePerSecond()).isEqualTo(1.0);
    assertThat(s.toBuilder().remaining(-1).build().remaining()).isEmpty();
  }

  @Test
  void aCustomDialectWithOneNumberStartsAnUnnamedRequestQuota() {
    RateLimitSignals s = RateLimitSignals.builder().remaining(7).build();

    assertThat(s.policyName()).isNull();
    assertThat(s.countsRequests()).isTrue();
    assertThat(s.remaining()).hasValue(7);
    assertThat(s.advertisesRate()).as("no quota, no window").isFalse();
  }

  @Test
  void aBuilderNeverChangesTheSignalsItWasSeededWithNorAListItWasGiven() {
    RateLimitPolicy day = RateLimitPolicy.builder("day").quota(1000).build();
    RateLimitPolicy hour = RateLimitPolicy.builder("hour").quota(100).build();
    java.util.List<RateLimitPolicy> given = new java.util.ArrayList<>(java.util.List.of(day));
    RateLimitSignals seeded = RateLimitSignals.builder().policies(given).build();
    given.add(hour);
    assertThat(seeded.policies()).containsExactly(day);

    RateLimitSignals more = seeded.toBuilder().addPolicy(hour).build();
    assertThat(more.policies()).containsExactly(day, hour);
    assertThat(seeded.policies()).containsExactly(day);

    RateLimitSignals replaced = more.toBuilder().policies(java.util.List.of(hour)).addPolicy(day).build();
    assertThat(replaced.policies()).containsExactly(hour, day);
    assertThat(more.policies()).containsExactly(day, hour);
  }
}
