package dev.polite.internal.retry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.polite.HeaderLines;
import dev.polite.Polite;
import dev.polite.RateLimitSignals;
import dev.polite.RequestView;
import dev.polite.ResponseView;
import java.net.URI;
import java.time.Duration;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The delay before a refused call's retry: never sooner than the server asked, with a jitter
 * above it only when the key does not itself hold every call back that long.
 */
class RetryDelayTest {
  private static final long SECOND = 1_000_000_000L;
  private final RequestView request = RequestView.of("GET", URI.create("http://localhost/"), HeaderLines.empty());
  private final RetryRules rules = new RetryRules(Polite.builder().random(new Random(7))
      .backoff(Duration.ofMillis(500), Duration.ofSeconds(30)).build().config());

  private Attempt refusedFor(Duration retryAfter) {
    ResponseView response = ResponseView.of(429, HeaderLines.empty());
    RateLimitSignals signals = RateLimitSignals.builder().rejection(true).retryAfter(retryAfter).build();
    return rules.judge(request, response, signals, 0);
  }

  private Duration delay(Duration retryAfter, long keyWaitNanos) {
    RetryRules.Next next = rules.forCall(new RetryBudget(10, 0.1))
        .next(refusedFor(retryAfter), () -> keyWaitNanos, needed -> true);
    assertThat(next.finish()).isFalse();
    return next.delay();
  }

  @Test
  void aKeyPausedForTheAskedDelayRetriesAsThePauseEndsWithoutJitter() {
    // The calls waiting on the key go as its pause ends; a jitter would put this one behind them.
    assertThat(delay(Duration.ofSeconds(1), SECOND)).isEqualTo(Duration.ofSeconds(1));
    assertThat(delay(Duration.ofSeconds(1), 3 * SECOND)).as("the key's own wait comes after")
        .isEqualTo(Duration.ofSeconds(1));
  }

  @Test
  void aKeyNotPausedThatLongSpreadsTheRetryAboveTheAskedDelay() {
    // A refusal read as a cap on calls in flight pauses no one: retries told the same instant
    // would all come back in the same millisecond.
    for (int i = 0; i < 20; i++) {
      assertThat(delay(Duration.ofSeconds(1), 0)).isBetween(Duration.ofSeconds(1),
          Duration.ofMillis(1_500));
    }
    assertThat(java.util.stream.IntStream.range(0, 20).mapToObj(i -> delay(Duration.ofSeconds(1), 0))
        .distinct().count()).as("spread").isGreaterThan(10);
  }

  @Test
  void aBareRefusalsRetryGoesWhenTheKeyLetsItWithoutJitter() {
    // The key's backoff pause is the backoff: it ends for every waiting call at once and the
    // key's bucket spaces them. A full jitter on top put the call behind the others (at one
    // caller, behind nothing at all: a fixed window found open at 1.0 s was first tried at 1.3).
    for (int i = 0; i < 20; i++) {
      assertThat(delay(null, 500_000_000L)).isEqualTo(Duration.ZERO);
    }
  }

  @Test
  void aBareRefusalOfAKeyThatHoldsNothingBackKeepsTheJitteredBackoff() {
    // RateController.none(): no pause, no pace; the retries themselves must spread.
    for (int i = 0; i < 20; i++) {
      assertThat(delay(null, 0)).isBetween(Duration.ZERO, Duration.ofMillis(500));
    }
    assertThat(java.util.stream.IntStream.range(0, 20).mapToObj(i -> delay(null, 0))
        .distinct().count()).as("spread").isGreaterThan(10);
  }
}
