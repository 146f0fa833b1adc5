package dev.polite.internal.headers;

import static dev.polite.internal.headers.Responses.NOW;
import static dev.polite.internal.headers.Responses.headers;
import static dev.polite.internal.headers.Responses.parse;
import static java.time.Duration.ofDays;
import static java.time.Duration.ofMillis;
import static java.time.Duration.ofSeconds;
import static org.assertj.core.api.Assertions.assertThat;

import dev.polite.RateLimitSignals;
import org.junit.jupiter.api.Test;

/** Retry-After (RFC 9110), its millisecond kin, X-Retry-In and the retry verdict headers. */
class RetryAfterTest {

  @Test
  void slackSendsDelaySecondsOn429() {
    RateLimitSignals s = parse(429, "Retry-After", "30");
    assertThat(s.retryAfter()).isEqualTo(ofSeconds(30));
    assertThat(s.isRejection()).isTrue();
  }

  @Test
  void httpDateWithoutDateHeaderIsMeasuredFromOurClock() {
    // NOW is 2025-01-01T00:00:00Z
    RateLimitSignals s = parse(503, "Retry-After", "Wed, 01 Jan 2025 00:02:00 GMT");
    assertThat(s.retryAfter()).isEqualTo(ofSeconds(120));
    assertThat(s.isRejection()).as("a 503 asks to wait but is not a rate-limit rejection").isFalse();
  }

  @Test
  void brokenDateHeaderFallsBackToOurClock() {
    RateLimitSignals s = parse("Retry-After", "Wed, 01 Jan 2025 00:00:10 GMT", "Date", "yesterday-ish");
    assertThat(s.retryAfter()).isEqualTo(ofSeconds(10));
  }

  @Test
  void ourClockIsRoundedUpToWholeSecondsForSecondResolutionDates() {
    RateLimitSignals s = SignalsReader.standard()
        .parse(429, headers("Retry-After", "Wed, 01 Jan 2025 00:00:10 GMT"), NOW + 300);
    assertThat(s.retryAfter()).isEqualTo(ofSeconds(10));
  }

  @Test
  void dateInThePastMeansNoWait() {
    RateLimitSignals s = parse("Retry-After", "Fri, 31 Dec 1999 23:59:59 GMT", "Date", "Sat, 01 Jan 2000 00:00:05 GMT");
    assertThat(s.retryAfter()).isEqualTo(ofSeconds(0));
  }

  @Test
  void azureOrderIsRetryAfterMsThenXmsRetryAfterMsThenRetryAfter() {
    assertThat(parse("x-ms-retry-after-ms", "250", "Retry-After", "3").retryAfter()).isEqualTo(ofMillis(250));
    assertThat(parse("x-ms-retry-after-ms", "250", "retry-after-ms", "40").retryAfter()).isEqualTo(ofMillis(40));
    assertThat(parse("retry-after-ms", "junk", "Retry-After", "3").retryAfter()).isEqualTo(ofSeconds(3));
  }

  @Test
  void openAiFractionalMilliseconds() {
    assertThat(parse("retry-after-ms", "1234.5").retryAfter()).isEqualTo(ofMillis(1235));
  }

  @Test
  void decimalSecondsRoundUpToTheMillisecond() {
    assertThat(parse("Retry-After", "0.0001").retryAfter()).isEqualTo(ofMillis(1));
    assertThat(parse("Retry-After", "1.5").retryAfter()).isEqualTo(ofMillis(1500));
  }

  @Test
  void absurdDelayIsAbsentAndFlaggedNotClampedToAYear() {
    RateLimitSignals s = parse(429, "Retry-After", "99999999999");
    assertThat(s.retryAfter()).isNull();
    assertThat(s.isAnomalous()).isTrue();
    assertThat(s.isRejection()).isTrue();
  }

  @Test
  void aYearIsTheLongestDelayBelieved() {
    assertThat(parse("Retry-After", "31536000").retryAfter()).isEqualTo(ofDays(365));
    assertThat(parse("Retry-After", "31536000").isAnomalous()).isFalse();
    assertThat(parse("Retry-After", "31536001").retryAfter()).isNull();
    assertThat(parse("Retry-After", "31536001").isAnomalous()).isTrue();
  }

  @Test
  void ieftSecurityExampleOfAMillionSecondsIsKeptForTheCallerToCap() {
    RateLimitSignals s = parse("Retry-After", "1000000");
    assertThat(s.retryAfter()).isEqualTo(ofSeconds(1_000_000));
    assertThat(s.isAnomalous()).isFalse();
  }

  @Test
  void repeatedRetryAfterTakesTheLongestAndFlags() {
    RateLimitSignals s = parse("Retry-After", "5", "Retry-After", "9");
    assertThat(s.retryAfter()).isEqualTo(ofSeconds(9));
    assertThat(s.isAnomalous()).isTrue();
    assertThat(parse("Retry-After", "5, 9").retryAfter()).isEqualTo(ofSeconds(9));
  }

  @Test
  void traefikRetryInAloneIsADelay() {
    assertThat(parse(429, "X-Retry-In", "30s").retryAfter()).isEqualTo(ofSeconds(30));
  }

  @Test
  void mailerLiteRetryAfterIsReadOnlyWithoutOthers() {
    assertThat(parse("X-RateLimit-Retry-After", "12").retryAfter()).isEqualTo(ofSeconds(12));
    assertThat(parse("X-RateLimit-Retry-After", "12", "Retry-After", "3").retryAfter()).isEqualTo(ofSeconds(3));
  }

  @Test
  void garbageIsDropped() {
    RateLimitSignals s = parse("Retry-After", "soon");
    assertThat(s.retryAfter()).isNull();
    assertThat(s.dialect()).isEqualTo(RateLimitSignals.NO_DIALECT);
  }

  @Test
  void stripeShouldRetryGatesTheDecision() {
    RateLimitSignals no = parse(429, "Stripe-Should-Retry", "false");
    assertThat(no.shouldRetry()).isFalse();
    assertThat(no.dialect()).isEqualTo("stripe");
    assertThat(parse(500, "Stripe-Should-Retry", "true").shouldRetry()).isTrue();
    assertThat(parse(500, "Stripe-Should-Retry", "maybe").shouldRetry()).isNull();
  }

  @Test
  void openAiShouldRetry() {
    assertThat(parse(500, "x-should-retry", "TRUE").shouldRetry()).isTrue();
    assertThat(parse(429, "x-should-retry", "false", "retry-after-ms", "10").shouldRetry()).isFalse();
  }

  @Test
  void disagreeingVerdictsMeanDoNotRetry() {
    assertThat(parse("x-should-retry", "true", "Stripe-Should-Retry", "false").shouldRetry()).isFalse();
  }

  @Test
  void cachedResponseKeepsAnAgedDelayButNoQuota() {
    RateLimitSignals s = parse(429, "Retry-After", "30", "Age", "10", "RateLimit", "\"default\";r=0;t=30");
    assertThat(s.retryAfter()).isEqualTo(ofSeconds(20));
    assertThat(s.remaining()).isEmpty();
    assertThat(s.policies()).isEmpty();
    assertThat(s.isRejection()).isTrue();
  }

  @Test
  void plain429WithoutHeadersIsARejection() {
    RateLimitSignals s = parse(429, "Content-Type", "text/plain");
    assertThat(s.isRejection()).isTrue();
    assertThat(s.retryAfter()).isNull();
    assertThat(parse(200, "Content-Type", "text/plain")).isSameAs(RateLimitSignals.none());
  }
}
