package dev.polite.examples.clients;

import static org.assertj.core.api.Assertions.assertThat;

import dev.polite.examples.Pause;
import java.time.Duration;
import java.util.SplittableRandom;
import okhttp3.Headers;
import okhttp3.Protocol;
import okhttp3.Request;
import okhttp3.Response;
import org.junit.jupiter.api.Test;

/** The small rules the peers and the counter share: what a rejection is, what Retry-After says. */
class PeersTest {

  @Test
  void a429IsARejectionAndSoIsA403WithASpentLimit() {
    assertThat(RateLimitRejection.is(response(429))).isTrue();
    assertThat(RateLimitRejection.is(response(403, "x-ratelimit-remaining", "0"))).isTrue();
    assertThat(RateLimitRejection.is(response(403, "RateLimit", "\"default\";r=0;t=5"))).isTrue();
    assertThat(RateLimitRejection.is(response(403, "RateLimit-Remaining", "0"))).isTrue();
  }

  @Test
  void otherAnswersAreNotRejections() {
    assertThat(RateLimitRejection.is(response(403))).isFalse();
    assertThat(RateLimitRejection.is(response(403, "x-ratelimit-remaining", "10"))).isFalse();
    assertThat(RateLimitRejection.is(response(403, "RateLimit", "\"default\";r=10;t=5"))).isFalse();
    assertThat(RateLimitRejection.is(response(200, "RateLimit", "\"default\";r=0;t=1"))).isFalse();
    assertThat(RateLimitRejection.is(response(503))).isFalse();
  }

  @Test
  void retryAfterReadsSecondsAndDatesAgainstTheResponsesDate() {
    assertThat(RetryAfter.of(response(429, "Retry-After", "2"))).isEqualTo(Duration.ofSeconds(2));
    assertThat(RetryAfter.of(response(429, "Retry-After", "Wed, 21 Oct 2015 07:28:05 GMT",
        "Date", "Wed, 21 Oct 2015 07:28:00 GMT"))).isEqualTo(Duration.ofSeconds(5));
    assertThat(RetryAfter.of(response(429))).isZero();
    assertThat(RetryAfter.of(response(429, "Retry-After", "soon"))).isZero();
    assertThat(RetryAfter.of(response(429, "Retry-After", "-3"))).isZero();
  }

  @Test
  void theJitterCapDoublesPerAttemptUpToEightSeconds() {
    RetryAfterJitterInterceptor peer = new RetryAfterJitterInterceptor(6, new SplittableRandom(7));
    double[] caps = {0.5, 1, 2, 4, 8, 8, 8};
    for (int attempt = 1; attempt <= caps.length; attempt++) {
      for (int i = 0; i < 200; i++) {
        Duration jitter = peer.jitter(attempt);
        assertThat(jitter).isBetween(Duration.ZERO, Duration.ofMillis((long) (caps[attempt - 1] * 1000)));
      }
    }
  }

  @Test
  void aPeerAsleepOnAnHoursRetryAfterWakesWhenItsCallIsCancelled() {
    okhttp3.Call call = new okhttp3.OkHttpClient().newCall(new Request.Builder().url("http://example.test/").build());
    call.cancel(); // as a cell's cut does; no thread is interrupted

    org.assertj.core.api.Assertions.assertThatThrownBy(() -> Pause.sleep(Duration.ofHours(1), call))
        .isInstanceOf(java.io.InterruptedIOException.class);
  }

  private static Response response(int code, String... headers) {
    return new Response.Builder()
        .request(new Request.Builder().url("http://example.test/").build())
        .protocol(Protocol.HTTP_1_1)
        .code(code)
        .message("status")
        .headers(Headers.of(headers))
        .build();
  }
}
