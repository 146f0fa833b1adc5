package dev.polite.demo.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.polite.demo.Algorithm;
import dev.polite.demo.HeaderStyle;
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
          RateLimiter server = new Policy(q, windowNanos, q).newLimiter(algorithm);
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
