package dev.polite.internal.headers;

import static dev.polite.internal.headers.Responses.NOW;
import static dev.polite.internal.headers.Responses.headers;
import static dev.polite.internal.headers.Responses.parse;
import static java.time.Duration.ofMillis;
import static java.time.Duration.ofSeconds;
import static org.assertj.core.api.Assertions.assertThat;

import dev.polite.HeaderLines;
import dev.polite.RateLimitDialect;
import dev.polite.RateLimitSignals;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** A user's own dialect, and the opt-in JSON body hint. */
class ExtensionTest {
  private static final RateLimitDialect ACME = new RateLimitDialect() {
    @Override
    public String name() {
      return "acme";
    }

    @Override
    public boolean read(int status, HeaderLines headers, long responseEpochMillis, RateLimitSignals.Builder signals) {
      String left = headers.first("Acme-Calls-Left");
      if (left == null) return false;
      signals.remaining(Long.parseLong(left.trim())).limit(100).window(Duration.ofMinutes(1));
      return true;
    }
  };

  @Test
  void userDialectReadsItsHeaders() {
    RateLimitSignals s = SignalsReader.standard().with(ACME).parse(200, headers("Acme-Calls-Left", "7"), NOW);
    assertThat(s.remaining()).hasValue(7);
    assertThat(s.dialect()).isEqualTo("acme");
    assertThat(s.advertisedRatePerSecond()).isCloseTo(100 / 60.0, org.assertj.core.data.Offset.offset(1e-9));
  }

  @Test
  void userDialectAddsToBuiltInReading() {
    RateLimitSignals s = SignalsReader.standard().with(ACME)
        .parse(429, headers("Acme-Calls-Left", "0", "Retry-After", "3"), NOW);
    assertThat(s.retryAfter()).isEqualTo(ofSeconds(3));
    assertThat(s.remaining()).hasValue(0);
    assertThat(s.isRejection()).isTrue();
  }

  @Test
  void userDialectThatDoesNotRecogniseOrThrowsChangesNothing() {
    SignalsReader parser = SignalsReader.standard().with(ACME);
    HeaderLines h = headers("Retry-After", "3", "Acme-Calls-Left", "lots");
    assertThat(parser.parse(429, h, NOW)).isEqualTo(SignalsReader.standard().parse(429, h, NOW));
    assertThat(parser.parse(200, headers("Content-Type", "x"), NOW)).isEqualTo(RateLimitSignals.none());
  }

  @Test
  void userDialectGetsTheResponsesClock() {
    AtomicLong seen = new AtomicLong();
    RateLimitDialect spy = new RateLimitDialect() {
      @Override
      public String name() {
        return "spy";
      }

      @Override
      public boolean read(int status, HeaderLines headers, long responseEpochMillis, RateLimitSignals.Builder signals) {
        seen.set(responseEpochMillis);
        signals.remaining(-5); // invalid: the builder throws, the reading is discarded
        return true;
      }
    };
    RateLimitSignals s = SignalsReader.standard().with(spy)
        .parse(200, headers("Date", "Sun, 06 Nov 1994 08:49:37 GMT"), NOW);
    assertThat(seen.get()).isEqualTo(784111777000L);
    assertThat(s.dialect()).isEqualTo(RateLimitSignals.NO_DIALECT);
  }

  @Test
  void discordBodyRefinesItsRoundedHeader() {
    SignalsReader parser = SignalsReader.standard();
    RateLimitSignals s = parse(429, "Retry-After", "65", "X-RateLimit-Global", "true");
    RateLimitSignals refined = parser.withBody(s, "application/json",
        "{\"message\": \"You are being rate limited.\", \"retry_after\": 64.57, \"global\": true}");
    assertThat(refined.retryAfter()).isEqualTo(ofMillis(64_570));
    assertThat(refined.isGlobal()).isTrue();
    assertThat(refined.dialect()).isEqualTo("discord");
  }

  @Test
  void bodyAloneGivesTheDelay() {
    RateLimitSignals s = SignalsReader.standard().withBody(parse(429), "application/json; charset=utf-8",
        "{\"retry_after\": 1.5, \"global\": false}");
    assertThat(s.retryAfter()).isEqualTo(ofMillis(1500));
    assertThat(s.dialect()).isEqualTo("discord");
  }

  @Test
  void matrixMilliseconds() {
    RateLimitSignals s = SignalsReader.standard().withBody(parse(429), "application/json",
        "{\"errcode\":\"M_LIMIT_EXCEEDED\",\"error\":\"Too many requests\",\"retry_after_ms\":2000}");
    assertThat(s.retryAfter()).isEqualTo(ofSeconds(2));
    assertThat(s.dialect()).isEqualTo("matrix");
  }

  @Test
  void longerHeaderDelayWinsOverAShortBody() {
    RateLimitSignals s = SignalsReader.standard().withBody(parse(429, "Retry-After", "30"), null,
        "{\"retry_after\": 2}");
    assertThat(s.retryAfter()).isEqualTo(ofSeconds(30));
  }

  @Test
  void nestedOrNonJsonBodiesAreIgnored() {
    RateLimitSignals base = parse(429);
    SignalsReader p = SignalsReader.standard();
    assertThat(p.withBody(base, "application/json", "{\"error\": {\"retry_after\": 9}, \"x\": [1, {\"a\": \"}\"}]}"))
        .isEqualTo(base);
    assertThat(p.withBody(base, "text/html", "{\"retry_after\": 9}")).isEqualTo(base);
    assertThat(p.withBody(base, "application/json", "not json")).isEqualTo(base);
    assertThat(p.withBody(base, "application/json", "{\"retry_after\": -4}").retryAfter()).isNull();
    assertThat(p.withBody(base, "application/json", "{\"retry_after\": \"soon\"}")).isEqualTo(base);
  }
}
