package dev.polite.internal.headers;

import static dev.polite.internal.headers.CorpusVectorsTest.policy;
import static dev.polite.internal.headers.Responses.parse;
import static java.time.Duration.ofMillis;
import static java.time.Duration.ofSeconds;
import static org.assertj.core.api.Assertions.assertThat;

import dev.polite.RateLimitPolicy;
import dev.polite.RateLimitSignals;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A value that cannot be true is absent, never clamped into a decision (the rules: {@link
 * Plausible}). The regression for the report of 2026-11-30: a 200 whose reset was garbage paused a
 * host for a year.
 */
class ImplausibleValuesTest {
  /** The reset values the user saw: 20 digits, Long.MAX_VALUE, and the epoch of the year 2100. */
  static final String[] ABSURD_RESETS = {"99999999999999999999", "9223372036854775807", "4102444800"};
  private static final String USERS_DATE = "Mon, 30 Nov 2026 12:00:00 GMT";

  static Stream<Arguments> usersHeaders() {
    Stream.Builder<Arguments> b = Stream.builder();
    for (String reset : ABSURD_RESETS) {
      for (String remaining : new String[] {"-3", "0"}) {
        for (boolean date : new boolean[] {true, false}) {
          for (int status : new int[] {200, 429}) {
            b.add(Arguments.of(reset, remaining, date, status));
          }
        }
      }
    }
    return b.build();
  }

  @ParameterizedTest(name = "reset {0}, remaining {1}, Date {2}, status {3}")
  @MethodSource("usersHeaders")
  void theUsersHeadersPauseNothing(String reset, String remaining, boolean date, int status) {
    RateLimitSignals s = date
        ? parse(status, "X-RateLimit-Limit", "60", "X-RateLimit-Remaining", remaining, "X-RateLimit-Reset", reset,
            "Date", USERS_DATE)
        : parse(status, "X-RateLimit-Limit", "60", "X-RateLimit-Remaining", remaining, "X-RateLimit-Reset", reset);
    assertNoPause(s);
    assertThat(s.limit()).hasValue(60);
    if (remaining.equals("0")) {
      assertThat(s.remaining()).hasValue(0);
    } else {
      assertThat(s.remaining()).as("a negative count is absent, not 0").isEmpty();
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"99999999999999999999", "9223372036854775807", "4102444800"})
  void theSameResetsAloneAndInTheOtherFamilies(String reset) {
    assertNoPause(parse("X-RateLimit-Reset", reset));
    assertNoPause(parse("x-rate-limit-remaining", "0", "x-rate-limit-reset", reset));
    assertNoPause(parse("RateLimit-Limit", "10", "RateLimit-Remaining", "0", "RateLimit-Reset", reset));
    assertNoPause(parse("X-RateLimit-Remaining", "0", "X-RateLimit-Reset-After", reset, "X-RateLimit-Bucket", "b"));
    assertNoPause(parse("x-ratelimit-remaining-requests", "0", "x-ratelimit-reset-requests", reset));
    assertNoPause(parse("zendesk-ratelimit-tickets", "total=100; remaining=0; resets=" + reset));
  }

  @ParameterizedTest
  @ValueSource(strings = {"99999999999999999999", "9223372036854775807", "4102444800"})
  void ietfResetOfTheSameSizes(String t) {
    for (String r : new String[] {"-3", "0"}) {
      RateLimitSignals s = parse("RateLimit-Policy", "\"default\";q=100;w=60", "RateLimit", "\"default\";r=" + r + ";t=" + t);
      assertNoPause(s);
    }
    // 4102444800 fits a structured-field integer: only t is dropped, the member's r=0 stands
    RateLimitSignals fits = parse("RateLimit", "\"default\";r=0;t=4102444800");
    assertThat(fits.remaining()).hasValue(0);
    assertThat(fits.reset()).isNull();
    assertThat(parse("RateLimit", "limit=10, remaining=0, reset=4102444800").reset()).isNull();
  }

  @ParameterizedTest
  @ValueSource(strings = {"99999999999", "-5", "1e400", "NaN", "Infinity", "-Infinity", "31536001",
      "Fri, 01 Jan 5000 00:00:00 GMT", "Thu, 01 Jan 1970 00:00:00 GMT", "Friday, 01-Jan-5000 00:00:00 GMT",
      "Sat Jan  1 00:00:00 5000", "9999999999999999999999999, 3"})
  void retryAfterThatCannotBeTrue(String value) {
    RateLimitSignals s = parse(429, "Retry-After", value, "Date", USERS_DATE);
    if (value.endsWith(", 3")) {
      assertThat(s.retryAfter()).as("the implausible member is dropped, the plausible one kept").isEqualTo(ofSeconds(3));
    } else {
      assertThat(s.retryAfter()).isNull();
    }
    assertThat(s.isAnomalous()).isTrue();
    assertThat(s.isRejection()).isTrue();
  }

  @ParameterizedTest
  @ValueSource(strings = {"retry-after-ms", "x-ms-retry-after-ms"})
  void millisecondRetryHeadersToo(String name) {
    for (String v : new String[] {"99999999999999", "-5", "1e400", "NaN"}) {
      RateLimitSignals s = parse(429, name, v);
      assertThat(s.retryAfter()).as(v).isNull();
      assertThat(s.isAnomalous()).as(v).isTrue();
    }
    assertThat(parse(429, name, "-1").isAnomalous()).as("-1 is the quiet 'unknown'").isFalse();
  }

  @Test
  void anImplausibleRetryHeaderLeavesTheNextOneInTheOrder() {
    assertThat(parse(429, "retry-after-ms", "1e400", "Retry-After", "3").retryAfter()).isEqualTo(ofSeconds(3));
  }

  @Test
  void aResetThatAlreadyPassedIsRestoredNowButOneYearsAgoIsGarbage() {
    RateLimitSignals passed = parse("X-RateLimit-Remaining", "0", "X-RateLimit-Reset", "1796036400", // 11:00, an hour before Date
        "Date", USERS_DATE);
    assertThat(passed.reset()).isEqualTo(ofSeconds(0));
    assertThat(passed.isAnomalous()).isFalse();
    RateLimitSignals ancient = parse("X-RateLimit-Remaining", "0", "X-RateLimit-Reset", "1000000000", "Date", USERS_DATE);
    assertThat(ancient.reset()).isNull();
    assertThat(ancient.isAnomalous()).isTrue();
  }

  @Test
  void anEpochWithinAYearOfDateIsBelievedEvenFarFromOurClock() {
    // the response's Date, not our clock, is the reference (NOW is 2025-01-01)
    RateLimitSignals s = parse("X-RateLimit-Reset", "1796043600", "Date", USERS_DATE); // 13:00
    assertThat(s.reset()).isEqualTo(ofSeconds(3600));
  }

  @ParameterizedTest
  @ValueSource(strings = {"5000-01-01T00:00:00Z", "1970-01-01T00:00Z", "9999-12-31T23:59:59.999Z"})
  void isoDatesFarFromDate(String reset) {
    RateLimitSignals s = parse("anthropic-ratelimit-requests-remaining", "0", "anthropic-ratelimit-requests-reset", reset,
        "date", USERS_DATE);
    assertNoPause(s);
    assertThat(s.remaining()).hasValue(0);
  }

  @Test
  void goDurationsAndTimeSpansBeyondAYearOrNegative() {
    assertNoPause(parse("x-ratelimit-remaining-tokens", "0", "x-ratelimit-reset-tokens", "999999999h"));
    assertNoPause(parse("x-ratelimit-remaining-tokens", "0", "x-ratelimit-reset-tokens", "-5s"));
    assertNoPause(parse("x-ms-user-quota-remaining", "0", "x-ms-user-quota-resets-after", "99999999.00:00:00"));
    assertNoPause(parse("x-ms-user-quota-remaining", "0", "x-ms-user-quota-resets-after", "-00:00:02"));
    assertNoPause(parse(429, "X-Retry-In", "9999999999h"));
    assertThat(policy(parse("x-ratelimit-reset-tokens", "8760h"), "tokens").reset()).as("a year exactly")
        .isEqualTo(ofSeconds(31_536_000));
  }

  @Test
  void negativeCountsAreAbsentInEveryDialect() {
    assertAbsentCount(parse("x-ratelimit-limit-requests", "60", "x-ratelimit-remaining-requests", "-3"), "requests");
    assertAbsentCount(parse("anthropic-ratelimit-requests-limit", "50", "anthropic-ratelimit-requests-remaining", "-3"),
        "requests");
    RateLimitSignals azure = parse("x-ms-ratelimit-remaining-subscription-reads", "-3");
    assertThat(azure.policies()).as("nothing else was known of it").isEmpty();
    assertThat(azure.isAnomalous()).isTrue();
    assertAbsentCount(parse("zendesk-ratelimit-tickets", "total=100; remaining=-3; resets=10"), "tickets");
    assertAbsentCount(parse("X-HubSpot-RateLimit-Daily", "1000", "X-HubSpot-RateLimit-Daily-Remaining", "-3"), "daily");
    assertAbsentCount(parse("RateLimit-Limit", "10", "RateLimit-Remaining", "-3"), "");
    assertAbsentCount(parse("X-Rate-Limit-Limit", "10", "X-Rate-Limit-Remaining", "-3"), "");
    assertThat(parse("X-Shopify-Shop-Api-Call-Limit", "-3/40").policies()).isEmpty();
    assertThat(parse("X-Shopify-Shop-Api-Call-Limit", "-3/40").isAnomalous()).isTrue();
  }

  @Test
  void aCountTooLongToBeTrueIsAbsentNotHuge() {
    RateLimitSignals s = parse("X-RateLimit-Limit", "99999999999999999999", "X-RateLimit-Remaining", "5");
    assertThat(s.limit()).isEmpty();
    assertThat(s.remaining()).hasValue(5);
    assertThat(s.isAnomalous()).isTrue();
    assertThat(parse("X-RateLimit-Remaining", "NaN").isAnomalous()).isTrue();
  }

  @Test
  void commaJoinedRemainingDropsTheImplausibleMemberBeforeTakingTheSmallest() {
    RateLimitSignals s = parse("x-ratelimit-remaining", "-3, 98, 991");
    assertThat(s.remaining()).hasValue(98);
    assertThat(s.isAnomalous()).isTrue();
    RateLimitSignals reset = parse("x-ratelimit-remaining", "0", "x-ratelimit-reset", "4102444800, 30");
    assertThat(reset.reset()).isEqualTo(ofSeconds(30));
  }

  @Test
  void windowsOfZeroOrOverAYearAreAbsent() {
    RateLimitSignals zero = parse("RateLimit-Policy", "\"p\";q=10;w=0");
    RateLimitPolicy p = policy(zero, "p");
    assertThat(p.window()).isNull();
    assertThat(p.quota()).hasValue(10);
    assertThat(zero.isAnomalous()).isTrue();
    assertThat(parse("RateLimit-Policy", "\"p\";q=10;w=31536001").policies().get(0).window()).isNull();
    assertThat(parse("RateLimit-Policy", "\"p\";q=10;w=31536000").policies().get(0).window())
        .isEqualTo(ofSeconds(31_536_000));
    RateLimitSignals hubSpot = parse("X-HubSpot-RateLimit-Max", "100", "X-HubSpot-RateLimit-Remaining", "99",
        "X-HubSpot-RateLimit-Interval-Milliseconds", "0");
    assertThat(hubSpot.window()).isNull();
    assertThat(hubSpot.isAnomalous()).isTrue();
    assertThat(parse("X-RateLimit-Replenish-Rate", "1", "X-RateLimit-Burst-Capacity", "999999999999").window()).isNull();
  }

  @Test
  void envoysNegativeExpiringLimitIsAbsentNotZero() {
    RateLimitSignals s = parse("x-ratelimit-limit", "-5, 10;w=60", "x-ratelimit-remaining", "3");
    assertThat(s.limit()).hasValue(10);
    assertThat(s.isAnomalous()).isTrue();
  }

  @ParameterizedTest
  @ValueSource(strings = {"{\"retry_after\": 99999999999}", "{\"retry_after\": 1e400}", "{\"retry_after\": NaN}",
      "{\"retry_after\": Infinity}", "{\"retry_after\": -5}", "{\"retry_after_ms\": 99999999999999}",
      "{\"retry_after\": 99999999999999999999999}"})
  void jsonHintsThatCannotBeTrue(String body) {
    RateLimitSignals s = SignalsReader.standard().withBody(parse(429, "Retry-After", "3"), "application/json", body);
    assertThat(s.retryAfter()).as("the header's delay stands").isEqualTo(ofSeconds(3));
    assertThat(s.isAnomalous()).isTrue();
    RateLimitSignals alone = SignalsReader.standard().withBody(parse(429), "application/json", body);
    assertThat(alone.retryAfter()).isNull();
  }

  @Test
  void jsonHintOfAYearIsKept() {
    RateLimitSignals s = SignalsReader.standard().withBody(parse(429), "application/json", "{\"retry_after\": 31536000}");
    assertThat(s.retryAfter()).isEqualTo(ofSeconds(31_536_000));
    assertThat(s.isAnomalous()).isFalse();
  }

  @Test
  void anAgeThatCannotBeTrueIsAbsentAndTheResponseReadAsFresh() {
    RateLimitSignals s = parse(429, "Retry-After", "30", "Age", "99999999999999999999", "RateLimit", "\"d\";r=0;t=30");
    assertThat(s.retryAfter()).isEqualTo(ofSeconds(30));
    assertThat(s.remaining()).hasValue(0);
    assertThat(s.isAnomalous()).isTrue();
    assertThat(parse(429, "Retry-After", "30", "Age", "10").retryAfter()).isEqualTo(ofSeconds(20));
  }

  @Test
  void fractionalEpochMillisecondsStillRoundUp() {
    // unchanged by the rule: a plausible epoch in milliseconds is converted as before
    assertThat(parse("x-ratelimit-limit", "10", "x-ratelimit-reset", "1735689605001").reset()).isEqualTo(ofMillis(5001));
  }

  private static void assertNoPause(RateLimitSignals s) {
    assertThat(s.reset()).as("reset").isNull();
    assertThat(s.retryAfter()).as("retryAfter").isNull();
    for (RateLimitPolicy p : s.policies()) assertThat(p.reset()).as("reset of " + p).isNull();
    s.remaining().ifPresent(v -> assertThat(v).isNotNegative());
    assertThat(s.isAnomalous()).as("anomalous").isTrue();
  }

  private static void assertAbsentCount(RateLimitSignals s, String policyName) {
    assertThat(policy(s, policyName).remaining()).as(policyName).isEmpty();
    assertThat(s.isAnomalous()).as(policyName).isTrue();
  }
}
