package dev.polite.internal.headers;

import static dev.polite.internal.headers.Responses.parse;
import static java.time.Duration.ofMillis;
import static java.time.Duration.ofSeconds;
import static org.assertj.core.api.Assertions.assertThat;

import dev.polite.RateLimitPolicy;
import dev.polite.RateLimitSignals;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The documented examples of every dialect, one case each, numbered as a catalogue of them. */
class CorpusVectorsTest {

  @ParameterizedTest(name = "{0}")
  @MethodSource("section7")
  void vector(String name, RateLimitSignals signals, Consumer<RateLimitSignals> expectation) {
    expectation.accept(signals);
  }

  static Stream<Arguments> section7() {
    return Stream.of(
        v("01 Retry-After delta-seconds",
            parse("Retry-After", "120"),
            s -> {
              assertThat(s.retryAfter()).isEqualTo(ofSeconds(120));
              assertThat(s.dialect()).isEqualTo("retry-after");
            }),
        v("02 Retry-After IMF-fixdate against Date",
            parse("Retry-After", "Fri, 31 Dec 1999 23:59:59 GMT", "Date", "Fri, 31 Dec 1999 23:59:00 GMT"),
            s -> assertThat(s.retryAfter()).isEqualTo(ofSeconds(59))),
        v("03 Retry-After RFC 850 date",
            parse("Retry-After", "Sunday, 06-Nov-94 08:49:37 GMT", "Date", "Sun, 06 Nov 1994 08:49:00 GMT"),
            s -> assertThat(s.retryAfter()).isEqualTo(ofSeconds(37))),
        v("04 Retry-After asctime date",
            parse("Retry-After", "Sun Nov  6 08:49:37 1994", "Date", "Sun, 06 Nov 1994 08:49:00 GMT"),
            s -> assertThat(s.retryAfter()).isEqualTo(ofSeconds(37))),
        v("05 Retry-After lenient decimal",
            parse("Retry-After", "2.0"),
            s -> assertThat(s.retryAfter()).isEqualTo(ofSeconds(2))),
        v("06 retry-after-ms before Retry-After",
            parse("retry-after-ms", "500", "Retry-After", "1"),
            s -> assertThat(s.retryAfter()).isEqualTo(ofMillis(500))),
        v("07 negative Retry-After is invalid",
            parse(429, "Retry-After", "-1484742195"),
            s -> {
              assertThat(s.retryAfter()).isNull();
              assertThat(s.isAnomalous()).isTrue();
              assertThat(s.isRejection()).isTrue();
            }),
        v("08 Retry-After in ms by mistake is still seconds per spec",
            parse(429, "Retry-After", "60000"),
            s -> assertThat(s.retryAfter()).isEqualTo(ofSeconds(60000))),
        v("09 IETF -10 RateLimit item",
            parse("RateLimit", "\"default\";r=50;t=30"),
            s -> {
              assertThat(s.policyName()).isEqualTo("default");
              assertThat(s.remaining()).hasValue(50);
              assertThat(s.reset()).isEqualTo(ofSeconds(30));
              assertThat(s.dialect()).isEqualTo("ietf-draft-11");
            }),
        v("10 two RateLimit lines: the exhausted one governs",
            parse("RateLimit", "\"100-in-1min\"; r=0; t=42", "RateLimit", "\"1000-in-1hr\"; r=10; t=900"),
            s -> {
              assertThat(s.remaining()).hasValue(0);
              assertThat(s.reset()).isEqualTo(ofSeconds(42));
              assertThat(s.policyName()).isEqualTo("100-in-1min");
              assertThat(s.policies()).hasSize(2);
            }),
        v("11 content-bytes policy with partition key",
            parse("RateLimit-Policy", "\"peruser\";q=65535;qu=\"content-bytes\";w=10;pk=:sdfjLJUOUH==:"),
            s -> {
              RateLimitPolicy p = s.policies().get(0);
              assertThat(p.name()).isEqualTo("peruser");
              assertThat(p.quota()).hasValue(65535);
              assertThat(p.unit()).isEqualTo("content-bytes");
              assertThat(p.window()).isEqualTo(ofSeconds(10));
              assertThat(p.partitionKey()).isEqualTo("sdfjLJUOUH==");
              assertThat(s.limit()).isEmpty(); // a byte quota never paces requests
            }),
        v("12 era D dictionary",
            parse("RateLimit", "limit=100, remaining=50, reset=5"),
            s -> {
              assertThat(s.limit()).hasValue(100);
              assertThat(s.remaining()).hasValue(50);
              assertThat(s.reset()).isEqualTo(ofSeconds(5));
              assertThat(s.dialect()).isEqualTo("ietf-draft-07");
            }),
        v("13 era B expiring limit",
            parse("RateLimit-Limit", "10, 10;w=1, 50;w=60", "RateLimit-Remaining", "1", "RateLimit-Reset", "7"),
            s -> {
              assertThat(s.limit()).hasValue(10);
              assertThat(s.remaining()).hasValue(1);
              assertThat(s.reset()).isEqualTo(ofSeconds(7));
              assertThat(s.window()).isEqualTo(ofSeconds(1));
              assertThat(s.policies()).hasSize(2);
              assertThat(s.dialect()).isEqualTo("ietf-draft-03");
            }),
        v("14 GitLab epoch reset",
            parse("RateLimit-Reset", "1609844400", "RateLimit-Observed", "67", "Date", "Tue, 05 Jan 2021 10:59:00 GMT"),
            s -> {
              assertThat(s.reset()).isEqualTo(ofSeconds(60));
              assertThat(s.dialect()).isEqualTo("gitlab");
            }),
        v("15 draft-polli-00 date reset",
            parse("RateLimit-Reset", "Tue, 15 Nov 1994 08:12:31 GMT", "Date", "Tue, 15 Nov 1994 08:12:01 GMT"),
            s -> {
              assertThat(s.reset()).isEqualTo(ofSeconds(30));
              assertThat(s.dialect()).isEqualTo("ietf-polli-00");
            }),
        v("16 GitHub epoch reset",
            parse("x-ratelimit-reset", "1655120964", "x-ratelimit-used", "16", "x-ratelimit-limit", "30",
                "x-ratelimit-remaining", "14", "Date", "Mon, 13 Jun 2022 11:48:53 GMT"),
            s -> {
              assertThat(s.reset()).isEqualTo(ofSeconds(31));
              assertThat(s.dialect()).isEqualTo("github");
            }),
        v("17 Discord prefers Reset-After",
            parse("X-RateLimit-Reset", "1470173023.123", "X-RateLimit-Reset-After", "64.57"),
            s -> {
              assertThat(s.reset()).isEqualTo(ofMillis(64_570));
              assertThat(s.dialect()).isEqualTo("discord");
            }),
        v("18 comma-joined remaining: the minimum, flagged",
            parse("x-ratelimit-remaining", "991, 98"),
            s -> {
              assertThat(s.remaining()).hasValue(98);
              assertThat(s.isAnomalous()).isTrue();
            }),
        v("19 Reddit floats",
            parse("X-Ratelimit-Remaining", "598.0", "X-Ratelimit-Reset", "372"),
            s -> {
              assertThat(s.remaining()).hasValue(598);
              assertThat(s.reset()).isEqualTo(ofSeconds(372));
            }),
        v("20 OpenAI Go durations",
            parse("x-ratelimit-reset-tokens", "6m0s", "x-ratelimit-reset-requests", "547ms",
                "x-ratelimit-reset-tokens_usage_based", "2m52.8s"),
            s -> {
              assertThat(policy(s, "tokens").reset()).isEqualTo(ofSeconds(360));
              assertThat(policy(s, "requests").reset()).isEqualTo(ofMillis(547));
              assertThat(policy(s, "tokens_usage_based").reset()).isEqualTo(ofMillis(172_800));
              assertThat(s.dialect()).isEqualTo("openai");
            }),
        v("21 Anthropic reset before Date is 0",
            parse("anthropic-ratelimit-requests-reset", "2025-08-21T12:40:59Z", "date", "Thu, 21 Aug 2025 12:41:00 GMT"),
            s -> {
              assertThat(s.reset()).isEqualTo(ofSeconds(0));
              assertThat(s.dialect()).isEqualTo("anthropic");
            }),
        v("22 Atlassian ISO minute precision",
            parse("X-RateLimit-Reset", "2026-03-26T16:00Z", "Date", "Thu, 26 Mar 2026 15:58:30 GMT"),
            s -> assertThat(s.reset()).isEqualTo(ofSeconds(90))),
        v("23 Shopify used/limit",
            parse("X-Shopify-Shop-Api-Call-Limit", "39/40"),
            s -> {
              assertThat(s.limit()).hasValue(40);
              assertThat(s.remaining()).hasValue(1);
              assertThat(s.dialect()).isEqualTo("shopify");
            }),
        v("24 Salesforce api-usage",
            parse("Sforce-Limit-Info", "api-usage=10018/100000; api-bursts=1/750"),
            s -> {
              RateLimitPolicy usage = policy(s, "api-usage");
              assertThat(usage.quota()).hasValue(100000);
              assertThat(usage.remaining()).hasValue(100000 - 10018);
              assertThat(policy(s, "api-bursts").remaining()).hasValue(749);
              assertThat(s.dialect()).isEqualTo("salesforce");
            }),
        v("25 Azure Resource Graph hh:mm:ss",
            parse("x-ms-user-quota-resets-after", "00:00:03"),
            s -> {
              assertThat(s.reset()).isEqualTo(ofSeconds(3));
              assertThat(s.dialect()).isEqualTo("azure");
            }),
        v("26 Azure Compute named remainders",
            parse("x-ms-ratelimit-remaining-resource",
                "Microsoft.Compute/GetVMScaleSet3Min;197,Microsoft.Compute/GetVMScaleSet30Min;1297"),
            s -> {
              assertThat(policy(s, "Microsoft.Compute/GetVMScaleSet3Min").remaining()).hasValue(197);
              assertThat(policy(s, "Microsoft.Compute/GetVMScaleSet30Min").remaining()).hasValue(1297);
              assertThat(s.remaining()).hasValue(197);
            }),
        v("27 remaining -1 is unknown",
            parse("X-RateLimit-Remaining", "-1"),
            s -> {
              assertThat(s.remaining()).isEmpty();
              assertThat(s.isAnomalous()).isFalse();
            }),
        v("28 JavaScript Date.toString reset",
            parse("X-RateLimit-Reset", "Tue Feb 16 2021 09:02:42 GMT+0100 (Central European Standard Time)",
                "Date", "Tue, 16 Feb 2021 08:02:00 GMT"),
            s -> assertThat(s.reset()).isEqualTo(ofSeconds(42))),
        v("29 Prisjakt milliseconds in X-Rate-Limit-Reset",
            parse("X-Rate-Limit-Reset", "600000"),
            s -> assertThat(s.reset()).isEqualTo(ofSeconds(600))),
        v("30 Envoy draft-03 limit with policy",
            parse("x-ratelimit-limit", "10, 10;w=60;name=\"per-ip\"", "x-ratelimit-remaining", "3"),
            s -> {
              assertThat(s.limit()).hasValue(10);
              assertThat(s.window()).isEqualTo(ofSeconds(60));
              assertThat(s.policyName()).isEqualTo("per-ip");
              assertThat(s.remaining()).hasValue(3);
              assertThat(s.dialect()).isEqualTo("envoy");
            }),
        v("31 Traefik X-Retry-In behind Retry-After: 0",
            parse(429, "Retry-After", "0", "X-Retry-In", "105.712425ms"),
            s -> assertThat(s.retryAfter()).isGreaterThanOrEqualTo(ofMillis(106))),
        v("32 header names are case-insensitive",
            parse("x-ratelimit-limit", "5"),
            s -> assertThat(s).isEqualTo(parse("X-RateLimit-Limit", "5"))));
  }

  static RateLimitPolicy policy(RateLimitSignals s, String name) {
    return s.policies().stream().filter(p -> p.name().equals(name)).findFirst()
        .orElseThrow(() -> new AssertionError("no policy " + name + " in " + s.policies()));
  }

  private static Arguments v(String name, RateLimitSignals signals, Consumer<RateLimitSignals> expectation) {
    return Arguments.of(name, signals, expectation);
  }
}
