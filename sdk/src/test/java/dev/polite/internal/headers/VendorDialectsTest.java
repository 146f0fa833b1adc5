package dev.polite.internal.headers;

import static dev.polite.internal.headers.CorpusVectorsTest.policy;
import static dev.polite.internal.headers.Responses.parse;
import static java.time.Duration.ofMillis;
import static java.time.Duration.ofSeconds;
import static org.assertj.core.api.Assertions.assertThat;

import dev.polite.RateLimitSignals;
import org.junit.jupiter.api.Test;

/** OpenAI, Kong, Anthropic, Shopify, Azure, Salesforce, Zendesk and HubSpot, from their documentation. */
class VendorDialectsTest {

  @Test
  void openAiDocumentedExample() {
    RateLimitSignals s = parse("x-ratelimit-limit-requests", "60", "x-ratelimit-limit-tokens", "150000",
        "x-ratelimit-remaining-requests", "59", "x-ratelimit-remaining-tokens", "149984",
        "x-ratelimit-reset-requests", "1s", "x-ratelimit-reset-tokens", "6m0s");
    assertThat(s.dialect()).isEqualTo("openai");
    assertThat(s.policyName()).isEqualTo("requests");
    assertThat(s.limit()).hasValue(60);
    assertThat(s.remaining()).hasValue(59);
    assertThat(s.reset()).isEqualTo(ofSeconds(1));
    assertThat(s.countsRequests()).isTrue();
    assertThat(policy(s, "tokens").unit()).isEqualTo("tokens");
    assertThat(policy(s, "tokens").remaining()).hasValue(149984);
  }

  @Test
  void openAiExhaustedTokensPauseTheKeyUntilTheirReset() {
    RateLimitSignals s = parse(429, "x-ratelimit-limit-requests", "60", "x-ratelimit-remaining-requests", "59",
        "x-ratelimit-reset-requests", "1s", "x-ratelimit-limit-tokens", "150000",
        "x-ratelimit-remaining-tokens", "0", "x-ratelimit-reset-tokens", "2m52.8s");
    assertThat(s.remaining()).hasValue(0);
    assertThat(s.reset()).isEqualTo(ofMillis(172_800));
    assertThat(s.quotaUnit()).isEqualTo("tokens");
    assertThat(s.countsRequests()).isFalse();
  }

  @Test
  void openAiBothExhaustedWaitsForTheLater() {
    RateLimitSignals s = parse("x-ratelimit-remaining-requests", "0", "x-ratelimit-reset-requests", "12ms",
        "x-ratelimit-remaining-tokens", "0", "x-ratelimit-reset-tokens", "33.023s");
    assertThat(s.reset()).isEqualTo(ofMillis(33_023));
    assertThat(s.policyName()).isEqualTo("tokens");
  }

  @Test
  void azureOpenAiMinusOneAndUnitlessReset() {
    RateLimitSignals s = parse("x-ratelimit-limit-tokens", "-1", "x-ratelimit-remaining-tokens", "-1",
        "x-ratelimit-reset-tokens", "0");
    assertThat(policy(s, "tokens").quota()).isEmpty();
    assertThat(policy(s, "tokens").reset()).isEqualTo(ofSeconds(0));
    assertThat(parse("x-ratelimit-remaining-tokens", "5", "x-ratelimit-reset-tokens", "64")
        .policies().get(0).reset()).isEqualTo(ofSeconds(64));
  }

  @Test
  void kongWindowsFromSuffixes() {
    RateLimitSignals s = parse("X-RateLimit-Limit-Minute", "10", "X-RateLimit-Remaining-Minute", "9",
        "X-RateLimit-Limit-Hour", "100", "X-RateLimit-Remaining-Hour", "3",
        "RateLimit-Limit", "100", "RateLimit-Remaining", "3", "RateLimit-Reset", "1800");
    assertThat(policy(s, "minute").window()).isEqualTo(ofSeconds(60));
    assertThat(policy(s, "hour").window()).isEqualTo(ofSeconds(3600));
    assertThat(s.remaining()).hasValue(3);
  }

  @Test
  void anthropicCapturedFixture() {
    RateLimitSignals s = parse("date", "Thu, 21 Aug 2025 12:41:00 GMT",
        "anthropic-ratelimit-input-tokens-limit", "80000", "anthropic-ratelimit-input-tokens-remaining", "80000",
        "anthropic-ratelimit-input-tokens-reset", "2025-08-21T12:40:59Z",
        "anthropic-ratelimit-output-tokens-limit", "16000", "anthropic-ratelimit-output-tokens-remaining", "16000",
        "anthropic-ratelimit-output-tokens-reset", "2025-08-21T12:41:00Z",
        "anthropic-ratelimit-requests-limit", "1000", "anthropic-ratelimit-requests-remaining", "999",
        "anthropic-ratelimit-requests-reset", "2025-08-21T12:40:59Z",
        "anthropic-ratelimit-tokens-limit", "96000", "anthropic-ratelimit-tokens-remaining", "96000",
        "anthropic-ratelimit-tokens-reset", "2025-08-21T12:40:59Z");
    assertThat(s.policies()).hasSize(4);
    assertThat(s.policyName()).isEqualTo("requests");
    assertThat(s.limit()).hasValue(1000);
    assertThat(s.remaining()).hasValue(999);
    assertThat(policy(s, "output-tokens").unit()).isEqualTo("tokens");
    assertThat(s.dialect()).isEqualTo("anthropic");
  }

  @Test
  void anthropicExhaustedInputTokensWithFutureReset() {
    RateLimitSignals s = parse(429, "date", "Thu, 21 Aug 2025 12:41:00 GMT", "retry-after", "20",
        "anthropic-ratelimit-requests-remaining", "500", "anthropic-ratelimit-requests-reset", "2025-08-21T12:41:01Z",
        "anthropic-ratelimit-input-tokens-remaining", "0", "anthropic-ratelimit-input-tokens-reset", "2025-08-21T12:41:20.5Z");
    assertThat(s.remaining()).hasValue(0);
    assertThat(s.reset()).isEqualTo(ofMillis(20_500));
    assertThat(s.retryAfter()).isEqualTo(ofSeconds(20));
  }

  @Test
  void anthropicOffsetTimestamp() {
    RateLimitSignals s = parse("date", "Thu, 21 Aug 2025 12:41:00 GMT",
        "anthropic-ratelimit-requests-remaining", "1", "anthropic-ratelimit-requests-reset", "2025-08-21T14:42:00+02:00");
    assertThat(s.reset()).isEqualTo(ofSeconds(60));
  }

  @Test
  void shopifyFullBucket() {
    RateLimitSignals s = parse(429, "X-Shopify-Shop-Api-Call-Limit", "40/40", "Retry-After", "2.0");
    assertThat(s.remaining()).hasValue(0);
    assertThat(s.retryAfter()).isEqualTo(ofSeconds(2));
    assertThat(s.isRejection()).isTrue();
  }

  @Test
  void shopifyPlusAndRackStyleValues() {
    assertThat(parse("X-Shopify-Shop-Api-Call-Limit", "32/400").remaining()).hasValue(368);
    assertThat(parse("X-Shopify-Shop-Api-Call-Limit", "1/40").limit()).hasValue(40);
  }

  @Test
  void shopifyRepeatedKeepsTheFullerBucket() {
    RateLimitSignals s = parse("X-Shopify-Shop-Api-Call-Limit", "32/40", "X-Shopify-Shop-Api-Call-Limit", "38/40");
    assertThat(s.remaining()).hasValue(2);
    assertThat(s.isAnomalous()).isTrue();
  }

  @Test
  void salesforceSimpleAndPerApp() {
    assertThat(parse("Sforce-Limit-Info", "api-usage=18/5000").remaining()).hasValue(4982);
    RateLimitSignals s = parse("Sforce-Limit-Info", "api-usage=25/5000; per-app-api-usage=17/250(appName=sample-connected-app)");
    assertThat(policy(s, "per-app-api-usage").remaining()).hasValue(233);
    assertThat(policy(s, "api-usage").quota()).hasValue(5000);
    assertThat(s.dialect()).isEqualTo("salesforce");
  }

  @Test
  void azureResourceManagerRemainders() {
    RateLimitSignals s = parse("x-ms-ratelimit-remaining-subscription-reads", "11999",
        "x-ms-ratelimit-remaining-tenant-reads", "11998");
    assertThat(s.remaining()).hasValue(11998);
    assertThat(s.policyName()).isEqualTo("tenant-reads");
    assertThat(s.dialect()).isEqualTo("azure");
  }

  @Test
  void azureResourceGraphQuota() {
    RateLimitSignals s = parse("x-ms-user-quota-remaining", "10", "x-ms-user-quota-resets-after", "00:00:05");
    assertThat(s.remaining()).hasValue(10);
    assertThat(s.reset()).isEqualTo(ofSeconds(5));
    assertThat(s.policyName()).isEqualTo("user-quota");
  }

  @Test
  void azureWritesWithRetryAfterMs() {
    RateLimitSignals s = parse(429, "x-ms-ratelimit-remaining-subscription-writes", "0", "retry-after-ms", "1500");
    assertThat(s.remaining()).hasValue(0);
    assertThat(s.retryAfter()).isEqualTo(ofMillis(1500));
  }

  @Test
  void zendeskEndpointQuota() {
    RateLimitSignals s = parse("zendesk-ratelimit-tickets-index", "total=100; remaining=99; resets=41");
    assertThat(s.limit()).hasValue(100);
    assertThat(s.remaining()).hasValue(99);
    assertThat(s.reset()).isEqualTo(ofSeconds(41));
    assertThat(s.policyName()).isEqualTo("tickets-index");
  }

  @Test
  void hubSpotDailyAndSecondly() {
    RateLimitSignals s = parse("X-HubSpot-RateLimit-Daily", "250000", "X-HubSpot-RateLimit-Daily-Remaining", "249000",
        "X-HubSpot-RateLimit-Secondly", "10", "X-HubSpot-RateLimit-Secondly-Remaining", "9");
    assertThat(s.policyName()).isEqualTo("secondly");
    assertThat(s.advertisedRatePerSecond()).isEqualTo(10.0);
    assertThat(policy(s, "daily").window()).isEqualTo(ofSeconds(86400));
    assertThat(s.dialect()).isEqualTo("hubspot");
  }

  @Test
  void hubSpotBurstWindowInMilliseconds() {
    RateLimitSignals s = parse("X-HubSpot-RateLimit-Max", "100", "X-HubSpot-RateLimit-Remaining", "97",
        "X-HubSpot-RateLimit-Interval-Milliseconds", "10000");
    assertThat(s.window()).isEqualTo(ofSeconds(10));
    assertThat(s.limit()).hasValue(100);
  }

  @Test
  void kongSecondAndDayWindows() {
    RateLimitSignals s = parse("X-RateLimit-Limit-Second", "5", "X-RateLimit-Remaining-Second", "4",
        "X-RateLimit-Limit-Day", "10000", "X-RateLimit-Remaining-Day", "9000");
    assertThat(s.policyName()).isEqualTo("second");
    assertThat(s.advertisedRatePerSecond()).isEqualTo(5.0);
    assertThat(s.dialect()).isEqualTo("kong");
  }

  @Test
  void kongExhaustedMinute() {
    RateLimitSignals s = parse(429, "X-RateLimit-Limit-Minute", "10", "X-RateLimit-Remaining-Minute", "0",
        "Retry-After", "12");
    assertThat(s.remaining()).hasValue(0);
    assertThat(s.window()).isEqualTo(ofSeconds(60));
    assertThat(s.retryAfter()).isEqualTo(ofSeconds(12));
  }

  @Test
  void salesforceOnSeveralLines() {
    RateLimitSignals s = parse("Sforce-Limit-Info", "api-usage=18/5000", "Sforce-Limit-Info", "api-bursts=749/750");
    assertThat(s.policies()).hasSize(2);
    assertThat(s.remaining()).hasValue(1);
    assertThat(s.policyName()).isEqualTo("api-bursts");
  }

  @Test
  void salesforceGarbageIsDropped() {
    assertThat(parse("Sforce-Limit-Info", "api-usage=lots").policies()).isEmpty();
  }

  @Test
  void hubSpotExhaustedSecondly() {
    RateLimitSignals s = parse(429, "X-HubSpot-RateLimit-Secondly", "10", "X-HubSpot-RateLimit-Secondly-Remaining", "0");
    assertThat(s.remaining()).hasValue(0);
    assertThat(s.window()).isEqualTo(ofSeconds(1));
  }
}
