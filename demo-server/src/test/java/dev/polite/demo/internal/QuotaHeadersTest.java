package dev.polite.demo.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.polite.demo.Algorithm;
import dev.polite.demo.DemoServerConfig;
import dev.polite.demo.HeaderStyle;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class QuotaHeadersTest {
  private static final long SECOND = 1_000_000_000L;

  private static Map<String, String> write(HeaderStyle style, Decision decision) {
    Map<String, String> headers = new LinkedHashMap<>();
    new QuotaHeaders(style, 10, 10 * SECOND).write(decision, 1_700_000_000_500L, headers::put);
    return headers;
  }

  @Test
  void ietfDraft11() {
    Map<String, String> h = write(HeaderStyle.IETF, Decision.allow(7, 400_000_000L));
    assertThat(h).containsEntry("RateLimit-Policy", "\"default\";q=10;w=10")
        .containsEntry("RateLimit", "\"default\";r=7;t=1");
  }

  @Test
  void tIsAtLeastOneWhileNothingRemains() {
    assertThat(write(HeaderStyle.IETF, Decision.reject(0, 1, 1)))
        .containsEntry("RateLimit", "\"default\";r=0;t=1");
    assertThat(QuotaHeaders.retryAfterSeconds(Decision.reject(0, 1, 1))).isEqualTo(1);
    assertThat(QuotaHeaders.retryAfterSeconds(Decision.reject(0, 2 * SECOND + 1, 1))).isEqualTo(3);
  }

  @Test
  void legacyAndGithubStyle() {
    Decision d = Decision.reject(0, 3 * SECOND, 3 * SECOND);
    assertThat(write(HeaderStyle.LEGACY, d)).containsEntry("RateLimit-Limit", "10")
        .containsEntry("RateLimit-Remaining", "0").containsEntry("RateLimit-Reset", "3");
    assertThat(write(HeaderStyle.X_RATELIMIT, d)).containsEntry("x-ratelimit-limit", "10")
        .containsEntry("x-ratelimit-remaining", "0").containsEntry("x-ratelimit-used", "10")
        .containsEntry("x-ratelimit-reset", "1700000003");
    assertThat(write(HeaderStyle.NONE, d)).isEmpty();
  }

  @Test
  void xsDialectIsGithubsNumbersAHyphenApartWithNoName() {
    Decision d = Decision.reject(0, 3 * SECOND, 3 * SECOND);
    assertThat(write(HeaderStyle.X_RATE_LIMIT, d)).containsExactly(Map.entry("x-rate-limit-limit", "10"),
        Map.entry("x-rate-limit-remaining", "0"), Map.entry("x-rate-limit-reset", "1700000003"));
    assertThat(write(HeaderStyle.X_RATE_LIMIT, Decision.allow(7, 400_000_000L)))
        .containsEntry("x-rate-limit-remaining", "7").containsEntry("x-rate-limit-reset", "1700000001");
  }

  @Test
  void azureSaysWhatRemainsAndNothingElse() {
    assertThat(write(HeaderStyle.AZURE, Decision.allow(7, 400_000_000L)))
        .containsExactly(Map.entry("x-ms-ratelimit-remaining-subscription-reads", "7"));
    assertThat(write(HeaderStyle.AZURE, Decision.reject(0, 3 * SECOND, 3 * SECOND)))
        .containsExactly(Map.entry("x-ms-ratelimit-remaining-subscription-reads", "0"));
    assertThat(QuotaHeaders.NAMES).contains("x-ms-ratelimit-remaining-subscription-reads", "x-rate-limit-reset");
  }

  private static Map<String, String> rejection(HeaderStyle style, long retryAfterNanos, long epochMillis) {
    Map<String, String> headers = new LinkedHashMap<>();
    new QuotaHeaders(style, 10, 10 * SECOND).writeRetryAfter(retryAfterNanos, epochMillis, headers::put);
    return headers;
  }

  @Test
  void retryAfterInEachStylesShape() {
    long now = 1_700_000_000_500L;
    for (HeaderStyle style : new HeaderStyle[] {HeaderStyle.IETF, HeaderStyle.LEGACY, HeaderStyle.X_RATELIMIT,
        HeaderStyle.X_RATE_LIMIT, HeaderStyle.RETRY_AFTER, HeaderStyle.USED_LIMIT, HeaderStyle.AZURE}) {
      assertThat(rejection(style, 2 * SECOND + 1, now)).as(style.cliName()).containsExactly(Map.entry("Retry-After", "3"));
    }
    assertThat(rejection(HeaderStyle.RETRY_AFTER_MS, 1_234_000_001L, now))
        .containsExactly(Map.entry("retry-after-ms", "1235"), Map.entry("Retry-After", "2"));
    assertThat(rejection(HeaderStyle.RETRY_AFTER_MS, 1, now)).containsEntry("retry-after-ms", "1")
        .containsEntry("Retry-After", "1");
    assertThat(rejection(HeaderStyle.NONE, 2 * SECOND, now)).as("a bare 429, like HAProxy's").isEmpty();
  }

  @Test
  void anHttpDateRetryAfterIsTheFirstWholeSecondAtOrAfterAdmission() {
    // now is 22:13:20.500; admitted 1.2 s later at 22:13:21.700, so 22:13:22 (Date says 22:13:20).
    Map<String, String> h = rejection(HeaderStyle.RETRY_AFTER_DATE, 1_200_000_000L, 1_700_000_000_500L);
    assertThat(h).containsExactly(Map.entry("Retry-After", "Tue, 14 Nov 2023 22:13:22 GMT"));
    // exactly on a second boundary it is that second, not the next
    assertThat(rejection(HeaderStyle.RETRY_AFTER_DATE, 500_000_000L, 1_700_000_000_500L))
        .containsEntry("Retry-After", "Tue, 14 Nov 2023 22:13:21 GMT");
    // IMF-fixdate pads the day to two digits, which RFC_1123_DATE_TIME would not
    assertThat(new HttpDate().format(Instant.parse("2026-03-06T08:49:37.999Z").toEpochMilli()))
        .isEqualTo("Fri, 06 Mar 2026 08:49:37 GMT");
  }

  @Test
  void everyServerStatesItsOwnDateFromItsOwnClock() {
    DemoServerConfig dated = DemoServerConfig.builder().headers(HeaderStyle.RETRY_AFTER_DATE).build();
    Map<String, String> h = new LinkedHashMap<>();
    long now = 1_700_000_000_500L;
    QuotaHeaders.of(dated).writeDate(now, h::put);
    assertThat(h).containsExactly(Map.entry("Date", "Tue, 14 Nov 2023 22:13:20 GMT"));

    Map<String, String> plain = new LinkedHashMap<>();
    QuotaHeaders.of(DemoServerConfig.builder().build()).writeDate(now, plain::put);
    assertThat(plain).as("not a cached one, such as the one that froze in the zoo")
        .containsExactly(Map.entry("Date", "Tue, 14 Nov 2023 22:13:20 GMT"));

    Map<String, String> skewed = new LinkedHashMap<>();
    QuotaHeaders.of(DemoServerConfig.builder().headers(HeaderStyle.X_RATELIMIT).clockSkew(Duration.ofSeconds(60)).build())
        .writeDate(now, skewed::put);
    assertThat(skewed).containsKey("Date");
  }

  @Test
  void anHttpDateMeasuredAgainstDateIsNeverShorterThanTheWait() {
    DateTimeFormatter http = DateTimeFormatter.RFC_1123_DATE_TIME;
    for (long now = 1_700_000_000_000L; now < 1_700_000_002_000L; now += 37) {
      for (long wait : new long[] {1, 999_999_999L, SECOND, 1_500_000_000L, 59 * SECOND + 1}) {
        Map<String, String> h = new LinkedHashMap<>();
        QuotaHeaders headers = QuotaHeaders.of(DemoServerConfig.builder().headers(HeaderStyle.RETRY_AFTER_DATE).build());
        headers.writeDate(now, h::put);
        headers.writeRetryAfter(wait, now, h::put);
        Duration stated = Duration.between(ZonedDateTime.parse(h.get("Date"), http),
            ZonedDateTime.parse(h.get("Retry-After"), http));
        long sinceDateNanos = (now % 1000) * 1_000_000L; // Date is truncated to the second
        assertThat(stated.toNanos()).as("now=%d wait=%d", now, wait).isGreaterThanOrEqualTo(sinceDateNanos + wait)
            .isLessThanOrEqualTo(sinceDateNanos + wait + 2 * SECOND);
      }
    }
  }

  @Test
  void usedLimitIsShopifysBucketFill() {
    DemoServerConfig config = DemoServerConfig.builder().headers(HeaderStyle.USED_LIMIT).limit(2)
        .window(Duration.ofSeconds(1)).burst(40).build();
    Map<String, String> first = new LinkedHashMap<>();
    QuotaHeaders.of(config).write(Decision.allow(39, 1), 0, first::put);
    assertThat(first).containsExactly(Map.entry("X-Shopify-Shop-Api-Call-Limit", "1/40"));
    Map<String, String> full = new LinkedHashMap<>();
    QuotaHeaders.of(config).write(Decision.reject(0, SECOND, SECOND), 0, full::put);
    assertThat(full).containsExactly(Map.entry("X-Shopify-Shop-Api-Call-Limit", "40/40"));
  }

  @Test
  void everyNthAnswerStatesAResetTwoHundredDaysAheadInTheStylesShape() {
    long now = 1_700_000_000_500L;
    Decision d = Decision.allow(4, 3 * SECOND);
    for (HeaderStyle style : HeaderStyle.values()) {
      QuotaHeaders headers = QuotaHeaders.of(DemoServerConfig.builder().headers(style).limit(10)
          .window(Duration.ofSeconds(10)).wrongResetEvery(3).build());
      Map<String, String> first = new LinkedHashMap<>();
      Map<String, String> third = new LinkedHashMap<>();
      headers.write(d, now, first::put);
      headers.write(d, now, new LinkedHashMap<String, String>()::put);
      headers.write(d, now, third::put);
      Map<String, String> expected = new LinkedHashMap<>(first);
      switch (style) {
        case IETF -> expected.put("RateLimit", "\"default\";r=4;t=17280000");
        case LEGACY -> expected.put("RateLimit-Reset", "17280000");
        case X_RATELIMIT -> expected.put("x-ratelimit-reset", Long.toString(1_700_000_000L + 17_280_000L));
        case X_RATE_LIMIT -> expected.put("x-rate-limit-reset", Long.toString(1_700_000_000L + 17_280_000L));
        default -> { } // no reset: nothing to be wrong
      }
      assertThat(third).as(style.cliName()).isEqualTo(expected);
      if (!expected.equals(first)) {
        assertThat(first).as(style.cliName()).doesNotContainValue("17280000");
      }
    }
  }

  @Test
  void styleNamesParse() {
    for (HeaderStyle style : HeaderStyle.values()) {
      assertThat(HeaderStyle.parse(style.cliName())).isEqualTo(style);
      assertThat(HeaderStyle.parse(style.name())).isEqualTo(style);
    }
    assertThat(HeaderStyle.parse("retry-after-ms")).isEqualTo(HeaderStyle.RETRY_AFTER_MS);
    assertThat(HeaderStyle.parse(" Used-Limit ")).isEqualTo(HeaderStyle.USED_LIMIT);
  }

  @Test
  void subSecondWindowsAreAdvertisedPerSecondRoundedDown() {
    Map<String, String> headers = new LinkedHashMap<>();
    new QuotaHeaders(HeaderStyle.IETF, 3, 700_000_000L).write(Decision.allow(1, 1), 0, headers::put);
    assertThat(headers).containsEntry("RateLimit-Policy", "\"default\";q=4;w=1");
  }

  /**
   * The contract the sdk relies on: a client that believes r, pauses t seconds when r = 0 and
   * otherwise paces at q/w never gets a 429 from a bucket whose burst is q. Two clients: one
   * that spends r back to back and pauses on every r = 0, and one that, after its first pause,
   * paces steadily at q/w whatever r says. Every bucket algorithm, several limits, a fake clock.
   */
  @Test
  void aClientPacingOnTheHeadersIsNeverRejected() {
    for (Algorithm algorithm : new Algorithm[] {Algorithm.TOKEN_BUCKET, Algorithm.GCRA, Algorithm.LEAKY_METER}) {
      for (long[] lw : new long[][] {{10, 10}, {5, 1}, {3, 10}, {7, 3}, {100, 60}, {1, 1}, {50, 1}}) {
        for (boolean steady : new boolean[] {false, true}) {
          long q = lw[0];
          long windowNanos = lw[1] * SECOND;
          RateLimiter server = MemoryStore.newLimiter(algorithm, new Policy(q, windowNanos, q));
          long interval = (long) Math.ceil((double) windowNanos / q);
          long now = 5 * SECOND + 123_456_789L;
          boolean pacing = false;
          for (int i = 0; i < 2_000; i++) {
            Decision decision = server.tryAcquire(now, 1);
            assertThat(decision.allowed())
                .as("%s q=%d w=%ds steady=%s request %d", algorithm, q, lw[1], steady, i).isTrue();
            if (pacing) {
              now += interval;
            } else if (decision.remaining() > 0) {
              now += 1; // spend what remains, back to back
            } else {
              now += QuotaHeaders.resetSeconds(decision) * SECOND; // pause t
              pacing = steady;
            }
          }
        }
      }
    }
  }
}
