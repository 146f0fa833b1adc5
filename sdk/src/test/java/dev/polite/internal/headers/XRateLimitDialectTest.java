package dev.polite.internal.headers;

import static dev.polite.internal.headers.Responses.parse;
import static java.time.Duration.ofMillis;
import static java.time.Duration.ofSeconds;
import static org.assertj.core.api.Assertions.assertThat;

import dev.polite.RateLimitSignals;
import org.junit.jupiter.api.Test;

/** The X-RateLimit-* and X-Rate-Limit-* families, each vendor with its documented examples. */
class XRateLimitDialectTest {

  @Test
  void gitHubPrimaryLimitOn403IsARejection() {
    RateLimitSignals s = parse(403, "x-ratelimit-limit", "5000", "x-ratelimit-remaining", "0",
        "x-ratelimit-used", "5000", "x-ratelimit-reset", "1735693200", "x-ratelimit-resource", "core",
        "Date", "Wed, 01 Jan 2025 00:00:00 GMT");
    assertThat(s.isRejection()).isTrue();
    assertThat(s.remaining()).hasValue(0);
    assertThat(s.reset()).isEqualTo(ofSeconds(3600));
    assertThat(s.bucket()).isEqualTo("core");
    assertThat(s.policyName()).isEqualTo("core");
    assertThat(s.dialect()).isEqualTo("github");
  }

  @Test
  void gitHubSecondaryLimitIs403WithRetryAfterAndRemainingLeft() {
    RateLimitSignals s = parse(403, "Retry-After", "60", "X-RateLimit-Limit", "30", "X-RateLimit-Remaining", "14",
        "X-RateLimit-Reset", "1655120964", "X-RateLimit-Used", "16", "X-RateLimit-Resource", "search",
        "Date", "Mon, 13 Jun 2022 11:48:53 GMT");
    assertThat(s.isRejection()).isTrue();
    assertThat(s.retryAfter()).isEqualTo(ofSeconds(60));
    assertThat(s.remaining()).hasValue(14);
    assertThat(s.bucket()).isEqualTo("search");
  }

  @Test
  void plain403IsNotARejection() {
    RateLimitSignals s = parse(403, "x-ratelimit-limit", "5000", "x-ratelimit-remaining", "4999",
        "x-ratelimit-used", "1", "x-ratelimit-resource", "core");
    assertThat(s.isRejection()).isFalse();
  }

  @Test
  void discordBucketHeaders() {
    RateLimitSignals s = parse("X-RateLimit-Limit", "5", "X-RateLimit-Remaining", "0",
        "X-RateLimit-Reset", "1470173023", "X-RateLimit-Reset-After", "1", "X-RateLimit-Bucket", "abcd1234");
    assertThat(s.limit()).hasValue(5);
    assertThat(s.remaining()).hasValue(0);
    assertThat(s.reset()).isEqualTo(ofSeconds(1));
    assertThat(s.bucket()).isEqualTo("abcd1234");
    assertThat(s.dialect()).isEqualTo("discord");
  }

  @Test
  void discordUserScoped429() {
    RateLimitSignals s = parse(429, "Retry-After", "65", "X-RateLimit-Limit", "10", "X-RateLimit-Remaining", "0",
        "X-RateLimit-Reset", "1470173023.123", "X-RateLimit-Reset-After", "64.57",
        "X-RateLimit-Bucket", "abcd1234", "X-RateLimit-Scope", "user");
    assertThat(s.retryAfter()).isEqualTo(ofSeconds(65));
    assertThat(s.reset()).isEqualTo(ofMillis(64_570));
    assertThat(s.scope()).isEqualTo("user");
    assertThat(s.isGlobal()).isFalse();
    assertThat(s.isRejection()).isTrue();
  }

  @Test
  void discordGlobal429WithoutQuota() {
    RateLimitSignals s = parse(429, "Retry-After", "65", "X-RateLimit-Global", "true", "X-RateLimit-Scope", "global");
    assertThat(s.isGlobal()).isTrue();
    assertThat(s.scope()).isEqualTo("global");
    assertThat(s.dialect()).isEqualTo("discord");
    assertThat(s.retryAfter()).isEqualTo(ofSeconds(65));
  }

  @Test
  void discordFractionalEpochAloneIsReadAgainstDate() {
    RateLimitSignals s = parse("X-RateLimit-Reset", "1470173023.123", "X-RateLimit-Bucket", "b",
        "Date", "Tue, 02 Aug 2016 21:23:40 GMT");
    assertThat(s.reset()).isEqualTo(ofMillis(3123));
  }

  @Test
  void redditUsedPlusRemainingIsTheLimit() {
    RateLimitSignals s = parse("X-Ratelimit-Used", "2", "X-Ratelimit-Remaining", "598.0", "X-Ratelimit-Reset", "372");
    assertThat(s.limit()).hasValue(600);
    assertThat(s.remaining()).hasValue(598);
    assertThat(s.reset()).isEqualTo(ofSeconds(372));
    assertThat(s.dialect()).isEqualTo("reddit");
  }

  @Test
  void redditDecimalResetIsTolerated() {
    assertThat(parse("X-Ratelimit-Used", "1", "X-Ratelimit-Remaining", "99.5", "X-Ratelimit-Reset", "12.4").reset())
        .isEqualTo(ofMillis(12_400));
  }

  @Test
  void expressRateLimitLegacyEpochWithDate() {
    RateLimitSignals s = parse("X-RateLimit-Limit", "100", "X-RateLimit-Remaining", "99",
        "Date", "Wed, 01 Jan 2025 00:00:00 GMT", "X-RateLimit-Reset", "1735689660");
    assertThat(s.reset()).isEqualTo(ofSeconds(60));
    assertThat(s.dialect()).isEqualTo("x-ratelimit");
  }

  @Test
  void epochMillisecondsByMagnitude() {
    RateLimitSignals s = parse("x-ratelimit-limit", "10", "x-ratelimit-reset", "1735689605000");
    assertThat(s.reset()).isEqualTo(ofSeconds(5));
  }

  @Test
  void fastifyDeltaSeconds() {
    RateLimitSignals s = parse(429, "x-ratelimit-limit", "100", "x-ratelimit-remaining", "0",
        "x-ratelimit-reset", "42", "retry-after", "42");
    assertThat(s.reset()).isEqualTo(ofSeconds(42));
    assertThat(s.remaining()).hasValue(0);
  }

  @Test
  void epochLongAgoIsDistrusted() {
    RateLimitSignals s = parse("x-ratelimit-limit", "10", "x-ratelimit-reset", "1000000000");
    assertThat(s.reset()).isNull();
    assertThat(s.isAnomalous()).isTrue();
  }

  @Test
  void springCloudGatewayRedisFailureReportsUnknown() {
    RateLimitSignals s = parse("X-RateLimit-Remaining", "-1", "X-RateLimit-Replenish-Rate", "10",
        "X-RateLimit-Burst-Capacity", "20", "X-RateLimit-Requested-Tokens", "1");
    assertThat(s.remaining()).isEmpty();
    assertThat(s.limit()).hasValue(20);
    assertThat(s.advertisedRatePerSecond()).isEqualTo(10.0);
    assertThat(s.dialect()).isEqualTo("spring-cloud-gateway");
  }

  @Test
  void atlassianNearLimit() {
    RateLimitSignals s = parse("X-RateLimit-Limit", "350", "X-RateLimit-Remaining", "3",
        "X-RateLimit-NearLimit", "true", "X-RateLimit-Reset", "2026-03-26T16:00Z", "Date", "Thu, 26 Mar 2026 15:59:00 GMT");
    assertThat(s.dialect()).isEqualTo("atlassian");
    assertThat(s.reset()).isEqualTo(ofSeconds(60));
  }

  @Test
  void envoyWithSeveralPolicies() {
    RateLimitSignals s = parse("x-ratelimit-limit", "10, 10;w=1, 1000;w=3600", "x-ratelimit-remaining", "0",
        "x-ratelimit-reset", "1");
    assertThat(s.policies()).hasSize(2);
    assertThat(s.window()).isEqualTo(ofSeconds(1));
    assertThat(s.remaining()).hasValue(0);
    assertThat(s.reset()).isEqualTo(ofSeconds(1));
  }

  @Test
  void xTwitterEpochSeconds() {
    RateLimitSignals s = parse("x-rate-limit-limit", "900", "x-rate-limit-remaining", "847",
        "x-rate-limit-reset", "1705420800", "date", "Tue, 16 Jan 2024 15:50:00 GMT");
    assertThat(s.limit()).hasValue(900);
    assertThat(s.remaining()).hasValue(847);
    assertThat(s.reset()).isEqualTo(ofSeconds(600));
    assertThat(s.dialect()).isEqualTo("x-rate-limit");
  }

  @Test
  void oktaEpochSeconds() {
    RateLimitSignals s = parse("X-Rate-Limit-Limit", "1200", "X-Rate-Limit-Remaining", "1199",
        "X-Rate-Limit-Reset", "1609459200", "Date", "Thu, 31 Dec 2020 23:59:30 GMT");
    assertThat(s.reset()).isEqualTo(ofSeconds(30));
    assertThat(s.limit()).hasValue(1200);
  }

  @Test
  void ibmNamesThePolicy() {
    RateLimitSignals s = parse("X-Rate-Limit-Policy", "per-client", "X-Rate-Limit-Remaining", "4");
    assertThat(s.policyName()).isEqualTo("per-client");
  }

  @Test
  void zendeskAccountLimitIsPerMinute() {
    RateLimitSignals s = parse("x-rate-limit", "700", "x-rate-limit-remaining", "699");
    assertThat(s.limit()).hasValue(700);
    assertThat(s.window()).isEqualTo(ofSeconds(60));
    assertThat(s.dialect()).isEqualTo("zendesk");
  }

  @Test
  void negativeRemainingOtherThanMinusOneIsAbsentAndFlaggedNotZero() {
    RateLimitSignals s = parse("x-ratelimit-remaining", "-27689");
    assertThat(s.remaining()).isEmpty();
    assertThat(s.isAnomalous()).isTrue();
  }

  @Test
  void remainingAboveItsLimitIsAbsentAndFlaggedTheLimitKept() {
    RateLimitSignals s = parse("X-RateLimit-Limit", "100", "X-RateLimit-Remaining", "5000");
    assertThat(s.limit()).hasValue(100);
    assertThat(s.remaining()).isEmpty();
    assertThat(s.isAnomalous()).isTrue();
    assertThat(parse("X-RateLimit-Limit", "100", "X-RateLimit-Remaining", "100").isAnomalous()).isFalse();
  }

  @Test
  void redditCommaJoinedWithUsed() {
    RateLimitSignals s = parse("x-ratelimit-used", "9, 2", "x-ratelimit-remaining", "991, 98", "x-ratelimit-reset", "300");
    assertThat(s.remaining()).hasValue(98);
    assertThat(s.limit()).hasValue(107);
    assertThat(s.isAnomalous()).isTrue();
    assertThat(s.dialect()).isEqualTo("reddit");
  }

  @Test
  void envoyGatewayRejection() {
    RateLimitSignals s = parse(429, "x-ratelimit-limit", "3, 3;w=60;name=\"per-user\"", "x-ratelimit-remaining", "0",
        "x-ratelimit-reset", "37");
    assertThat(s.remaining()).hasValue(0);
    assertThat(s.reset()).isEqualTo(ofSeconds(37));
    assertThat(s.policyName()).isEqualTo("per-user");
    assertThat(s.isRejection()).isTrue();
  }

  @Test
  void envoyOlderWindowSpelling() {
    RateLimitSignals s = parse("x-ratelimit-limit", "10, 10;window=1", "x-ratelimit-remaining", "9");
    assertThat(s.window()).isEqualTo(ofSeconds(1));
    assertThat(s.dialect()).isEqualTo("envoy");
  }

  @Test
  void springCloudGatewayHealthy() {
    RateLimitSignals s = parse("X-RateLimit-Remaining", "19", "X-RateLimit-Replenish-Rate", "10",
        "X-RateLimit-Burst-Capacity", "20");
    assertThat(s.remaining()).hasValue(19);
    assertThat(s.window()).isEqualTo(ofSeconds(2));
  }

  @Test
  void springCloudGatewayReplenishRateOnly() {
    RateLimitSignals s = parse("X-RateLimit-Remaining", "0", "X-RateLimit-Replenish-Rate", "5");
    assertThat(s.advertisedRatePerSecond()).isEqualTo(5.0);
    assertThat(s.remaining()).hasValue(0);
  }

  @Test
  void atlassian429WithReason() {
    RateLimitSignals s = parse(429, "Retry-After", "5", "X-RateLimit-Limit", "350", "X-RateLimit-Remaining", "0",
        "RateLimit-Reason", "jira-burst-based", "X-RateLimit-Reset", "2026-03-26T16:00Z",
        "Date", "Thu, 26 Mar 2026 15:59:55 GMT");
    assertThat(s.dialect()).isEqualTo("atlassian");
    assertThat(s.reset()).isEqualTo(ofSeconds(5));
    assertThat(s.retryAfter()).isEqualTo(ofSeconds(5));
  }

  @Test
  void auth0EpochSeconds() {
    RateLimitSignals s = parse("x-ratelimit-limit", "10", "x-ratelimit-remaining", "9", "x-ratelimit-reset", "1735689610");
    assertThat(s.reset()).isEqualTo(ofSeconds(10));
  }
}
