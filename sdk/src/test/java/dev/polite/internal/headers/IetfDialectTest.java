package dev.polite.internal.headers;

import static dev.polite.internal.headers.CorpusVectorsTest.policy;
import static dev.polite.internal.headers.Responses.parse;
import static java.time.Duration.ofSeconds;
import static org.assertj.core.api.Assertions.assertThat;

import dev.polite.RateLimitPolicy;
import dev.polite.RateLimitSignals;
import org.junit.jupiter.api.Test;

/** The IETF draft fields in every era, with the drafts' own examples and emitters' output. */
class IetfDialectTest {

  @Test
  void draft10TwoPoliciesOneReported() {
    RateLimitSignals s = parse(
        "RateLimit-Policy", "\"hour\";q=1000;w=3600, \"day\";q=5000;w=86400",
        "RateLimit", "\"day\";r=100;t=36000");
    assertThat(s.policies()).hasSize(2);
    assertThat(s.policyName()).isEqualTo("day");
    assertThat(s.limit()).hasValue(5000);
    assertThat(s.window()).isEqualTo(ofSeconds(86400));
    assertThat(s.remaining()).hasValue(100);
    assertThat(s.reset()).isEqualTo(ofSeconds(36000));
    assertThat(policy(s, "hour").remaining()).isEmpty();
  }

  @Test
  void policiesAloneGovernByTheLowestRate() {
    RateLimitSignals s = parse("RateLimit-Policy", "\"burst\";q=100;w=60,\"daily\";q=1000;w=86400");
    assertThat(s.policyName()).isEqualTo("daily");
    assertThat(s.advertisesRate()).isTrue();
    assertThat(s.dialect()).isEqualTo("ietf-draft-11");
  }

  @Test
  void tokenNamesAndMissingRemainingAreTolerated() {
    RateLimitSignals s = parse("RateLimit-Policy", "quota;q=100;w=1", "RateLimit", "quota;t=1");
    assertThat(s.policyName()).isEqualTo("quota");
    assertThat(s.limit()).hasValue(100);
    assertThat(s.remaining()).isEmpty();
    assertThat(s.reset()).isEqualTo(ofSeconds(1));
    assertThat(s.advertisedRatePerSecond()).isEqualTo(100.0);
  }

  @Test
  void expressRateLimitDraft8LinesWithSpacesAndPartitionKeys() {
    RateLimitSignals s = parse(
        "RateLimit-Policy", "\"100-in-1min\"; q=100; w=60; pk=:ZGVhZGJlZWYwMTIz:",
        "RateLimit", "\"100-in-1min\"; r=99; t=60",
        "RateLimit-Policy", "\"1000-in-1hr\"; q=1000; w=3600; pk=:ZGVhZGJlZWYwMTIz:",
        "RateLimit", "\"1000-in-1hr\"; r=998; t=3000");
    assertThat(s.policies()).hasSize(2);
    assertThat(s.policyName()).isEqualTo("100-in-1min");
    assertThat(s.remaining()).hasValue(99);
    assertThat(policy(s, "1000-in-1hr").remaining()).hasValue(998);
    assertThat(policy(s, "1000-in-1hr").partitionKey()).isEqualTo("ZGVhZGJlZWYwMTIz");
  }

  @Test
  void cloudflareLowerCaseNames() {
    RateLimitSignals s = parse(429, "ratelimit", "\"default\";r=0;t=30", "ratelimit-policy", "\"burst\";q=100;w=60",
        "retry-after", "30");
    assertThat(s.remaining()).hasValue(0);
    assertThat(s.reset()).isEqualTo(ofSeconds(30));
    assertThat(s.retryAfter()).isEqualTo(ofSeconds(30));
    assertThat(s.policies()).hasSize(2);
  }

  @Test
  void draftThrottledResponseUsesDateForRetryAfter() {
    RateLimitSignals s = parse(429, "Date", "Mon, 05 Aug 2019 09:27:00 GMT",
        "Retry-After", "Mon, 05 Aug 2019 09:27:05 GMT", "RateLimit", "\"default\";r=0;t=5");
    assertThat(s.retryAfter()).isEqualTo(ofSeconds(5));
    assertThat(s.reset()).isEqualTo(ofSeconds(5));
    assertThat(s.isRejection()).isTrue();
  }

  @Test
  void exhaustedByteQuotaGovernsEvenBesideAFreshRequestQuota() {
    RateLimitSignals s = parse(
        "RateLimit-Policy", "\"req\";q=100;w=60, \"bytes\";q=65535;qu=\"content-bytes\";w=10",
        "RateLimit", "\"req\";r=80;t=40, \"bytes\";r=0;t=7");
    assertThat(s.remaining()).hasValue(0);
    assertThat(s.reset()).isEqualTo(ofSeconds(7));
    assertThat(s.quotaUnit()).isEqualTo("content-bytes");
    assertThat(s.countsRequests()).isFalse();
  }

  @Test
  void freshByteQuotaLeavesTheRequestQuotaGoverning() {
    RateLimitSignals s = parse(
        "RateLimit-Policy", "\"bytes\";q=65535;qu=\"content-bytes\";w=10, \"req\";q=100;w=60",
        "RateLimit", "\"bytes\";r=5;t=7, \"req\";r=80;t=40");
    assertThat(s.policyName()).isEqualTo("req");
    assertThat(s.remaining()).hasValue(80);
    assertThat(s.countsRequests()).isTrue();
  }

  @Test
  void appendixSlidingExamplePutsQOnTheRateLimitItem() {
    RateLimitSignals s = parse("RateLimit", "\"sliding\";q=12;r=6;t=1");
    assertThat(s.limit()).hasValue(12);
    assertThat(s.remaining()).hasValue(6);
  }

  @Test
  void malformedStructuredFieldIsIgnoredAndFlagged() {
    RateLimitSignals s = parse("RateLimit", "\"default\";r=50;t=30,");
    assertThat(s.policies()).isEmpty();
    assertThat(s.isAnomalous()).isTrue();
  }

  @Test
  void remainingAboveThePolicysQuotaIsDroppedFromThatPolicyOnly() {
    RateLimitSignals s = parse("RateLimit-Policy", "\"a\";q=10;w=1, \"b\";q=100;w=60",
        "RateLimit", "\"a\";r=50;t=1, \"b\";r=40;t=30");
    assertThat(CorpusVectorsTest.policy(s, "a").remaining()).isEmpty();
    assertThat(CorpusVectorsTest.policy(s, "a").quota()).hasValue(10);
    assertThat(CorpusVectorsTest.policy(s, "b").remaining()).hasValue(40);
    assertThat(s.isAnomalous()).isTrue();
  }

  @Test
  void negativeParameterDropsOnlyThatMember() {
    RateLimitSignals s = parse("RateLimit", "\"a\";r=-5;t=3, \"b\";r=4;t=2");
    assertThat(s.policies()).extracting(RateLimitPolicy::name).containsExactly("b");
    assertThat(s.isAnomalous()).isTrue();
  }

  @Test
  void atlassianBetaFieldsReadAsTheirOwnEra() {
    RateLimitSignals s = parse(
        "Beta-Ratelimit-Policy", "\"tenant-app-quota\";q=100100;w=3600",
        "Beta-Ratelimit", "\"tenant-app-quota\";r=0;t=2788",
        "X-Ratelimit-Limit", "350", "X-Ratelimit-Remaining", "349",
        "X-Beta-Ratelimit-Reset", "2026-03-26T16:00Z");
    assertThat(s.policyName()).isEqualTo("tenant-app-quota");
    assertThat(s.remaining()).hasValue(0);
    assertThat(s.reset()).isEqualTo(ofSeconds(2788));
    assertThat(s.dialect()).isEqualTo("ietf-draft-11-beta");
    assertThat(s.policies()).hasSize(2);
  }

  @Test
  void eraDWithPolicyField() {
    RateLimitSignals s = parse("RateLimit", "limit=10, remaining=2, reset=1", "RateLimit-Policy", "10;w=1, 50;w=60");
    assertThat(s.limit()).hasValue(10);
    assertThat(s.window()).isEqualTo(ofSeconds(1));
    assertThat(s.remaining()).hasValue(2);
    assertThat(s.policies()).hasSize(2);
  }

  @Test
  void eraCFourFields() {
    RateLimitSignals s = parse("RateLimit-Policy", "100;w=60", "RateLimit-Limit", "100",
        "RateLimit-Remaining", "99", "RateLimit-Reset", "60");
    assertThat(s.limit()).hasValue(100);
    assertThat(s.window()).isEqualTo(ofSeconds(60));
    assertThat(s.remaining()).hasValue(99);
    assertThat(s.reset()).isEqualTo(ofSeconds(60));
    assertThat(s.advertisedRatePerSecond()).isCloseTo(100 / 60.0, org.assertj.core.data.Offset.offset(1e-9));
    assertThat(s.dialect()).isEqualTo("ietf-draft-06");
  }

  @Test
  void eraBBurstParameterAndPolli00Window() {
    RateLimitSignals b = parse("RateLimit-Limit", "10, 10;w=1;burst=1000, 1000;w=3600", "RateLimit-Remaining", "9");
    assertThat(b.window()).isEqualTo(ofSeconds(1));
    RateLimitSignals a = parse("RateLimit-Limit", "10, 10;window=1, 50;window=60", "RateLimit-Reset", "50");
    assertThat(a.window()).isEqualTo(ofSeconds(1));
    assertThat(a.dialect()).isEqualTo("ietf-polli-00");
  }

  @Test
  void zendeskAndKongUnprefixedDeltaReset() {
    RateLimitSignals s = parse("ratelimit-limit", "700", "ratelimit-remaining", "699", "ratelimit-reset", "41");
    assertThat(s.limit()).hasValue(700);
    assertThat(s.remaining()).hasValue(699);
    assertThat(s.reset()).isEqualTo(ofSeconds(41));
  }

  @Test
  void gitLabFullSetHasAPerMinuteWindow() {
    RateLimitSignals s = parse(429, "RateLimit-Limit", "60", "RateLimit-Name", "throttle_authenticated_web",
        "RateLimit-Observed", "67", "RateLimit-Remaining", "0", "RateLimit-Reset", "1609844400",
        "RateLimit-ResetTime", "Tue, 05 Jan 2021 11:00:00 GMT", "Retry-After", "30",
        "Date", "Tue, 05 Jan 2021 10:59:30 GMT");
    assertThat(s.dialect()).isEqualTo("gitlab");
    assertThat(s.policyName()).isEqualTo("throttle_authenticated_web");
    assertThat(s.window()).isEqualTo(ofSeconds(60));
    assertThat(s.remaining()).hasValue(0);
    assertThat(s.reset()).isEqualTo(ofSeconds(30));
    assertThat(s.retryAfter()).isEqualTo(ofSeconds(30));
  }

  @Test
  void gitLabResetTimeAloneIsADate() {
    RateLimitSignals s = parse("RateLimit-Limit", "60", "RateLimit-ResetTime", "Tue, 05 Jan 2021 11:00:00 GMT",
        "Date", "Tue, 05 Jan 2021 10:59:00 GMT");
    assertThat(s.reset()).isEqualTo(ofSeconds(60));
  }

  @Test
  void requestUnitSpelledSingularStillCountsRequests() {
    RateLimitSignals s = parse("RateLimit-Policy", "\"p\";q=10;w=1;qu=\"request\"");
    assertThat(s.countsRequests()).isTrue();
    assertThat(s.advertisesRate()).isTrue();
  }

  @Test
  void concurrencyQuotaIsExposedButDoesNotPace() {
    RateLimitSignals s = parse("RateLimit-Policy", "\"conc\";q=5;qu=\"concurrent-requests\"");
    assertThat(s.policies()).hasSize(1);
    assertThat(s.limit()).isEmpty();
  }

  @Test
  void atlassianBetaPolicyGoneOnceExhausted() {
    RateLimitSignals s = parse(429, "Beta-Ratelimit", "\"tenant-app-quota\";r=0;t=2788",
        "X-Beta-Ratelimit-Reason", "jira-quota-tenant-based", "Retry-After", "2788");
    assertThat(s.remaining()).hasValue(0);
    assertThat(s.reset()).isEqualTo(ofSeconds(2788));
    assertThat(s.limit()).isEmpty();
    assertThat(s.dialect()).isEqualTo("ietf-draft-11-beta");
  }

  @Test
  void atlassianBetaBesideTheRequestRateGovernsOnlyWhenLower() {
    RateLimitSignals s = parse("Beta-Ratelimit-Policy", "\"tenant-app-quota\";q=100100;w=3600",
        "Beta-Ratelimit", "\"tenant-app-quota\";r=17842;t=2107",
        "X-Beta-Ratelimit-Nearlimit", "true", "X-Ratelimit-Limit", "350", "X-Ratelimit-Remaining", "349");
    assertThat(s.remaining()).hasValue(349);
    assertThat(s.dialect()).isEqualTo("atlassian");
  }

  @Test
  void betaAndPlainFieldsAreReadApart() {
    RateLimitSignals s = parse("Beta-RateLimit", "\"b\";r=5;t=1", "RateLimit", "\"a\";r=7;t=2");
    assertThat(s.policies()).extracting(RateLimitPolicy::name).containsExactly("a", "b");
    assertThat(s.policyName()).isEqualTo("b");
  }

  @Test
  void eraDWithoutRemaining() {
    RateLimitSignals s = parse("RateLimit", "limit=10, reset=1");
    assertThat(s.limit()).hasValue(10);
    assertThat(s.remaining()).isEmpty();
    assertThat(s.reset()).isEqualTo(ofSeconds(1));
    assertThat(s.dialect()).isEqualTo("ietf-draft-07");
  }

  @Test
  void eraDExpressDraft7Output() {
    RateLimitSignals s = parse("RateLimit-Policy", "100;w=60", "RateLimit", "limit=100, remaining=99, reset=60");
    assertThat(s.window()).isEqualTo(ofSeconds(60));
    assertThat(s.remaining()).hasValue(99);
    assertThat(s.policies()).hasSize(1);
  }

  @Test
  void eraBSimpleTenSecondWindow() {
    RateLimitSignals s = parse("RateLimit-Limit", "100, 100;w=10", "RateLimit-Remaining", "50", "RateLimit-Reset", "5");
    assertThat(s.advertisedRatePerSecond()).isEqualTo(10.0);
    assertThat(s.remaining()).hasValue(50);
    assertThat(s.dialect()).isEqualTo("ietf-draft-03");
  }

  @Test
  void polli00FullExample() {
    RateLimitSignals s = parse("RateLimit-Limit", "10, 10;window=1, 50;window=60, 1000;window=3600, 5000;window=86400",
        "RateLimit-Remaining", "50", "RateLimit-Reset", "50");
    assertThat(s.policies()).hasSize(4);
    assertThat(s.dialect()).isEqualTo("ietf-polli-00");
  }

  @Test
  void gitLabWithoutDateUsesOurClock() {
    // NOW is 2025-01-01T00:00:00Z = 1735689600
    RateLimitSignals s = parse(429, "RateLimit-Observed", "61", "RateLimit-Remaining", "0", "RateLimit-Reset", "1735689645");
    assertThat(s.reset()).isEqualTo(ofSeconds(45));
    assertThat(s.dialect()).isEqualTo("gitlab");
  }

  @Test
  void activeCampaignPlainFields() {
    RateLimitSignals s = parse(429, "RateLimit-Limit", "5", "RateLimit-Remaining", "0", "Retry-After", "30");
    assertThat(s.limit()).hasValue(5);
    assertThat(s.remaining()).hasValue(0);
    assertThat(s.retryAfter()).isEqualTo(ofSeconds(30));
  }
}
