package dev.polite.internal.model;

import static org.assertj.core.api.Assertions.assertThat;

import dev.polite.Polite;
import dev.polite.RateController;
import dev.polite.RateLimitSignals;
import dev.polite.Sleeper;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A refusal's body is read after its headers were learnt ({@link KeyModel#onBodyHint}): its
 * delay refines the pause those headers began, and lengthens one only when other answers set it.
 */
class BodyHintTest {
  private static final long MS = 1_000_000L;
  private static final long SECOND = 1_000 * MS;

  private long now = 1_000 * SECOND;
  private final KeyModel key = new KeyModel("k", Polite.builder()
      .clock(() -> 0L, Sleeper.system()).rateController(RateController.none())
      .maxWait(Duration.ofSeconds(60)).build().config(), now);

  private Permit send() {
    KeyModel.Reservation r = key.reserve(1, now);
    assertThat(r.waitNanos()).isZero();
    return key.grant(now, r);
  }

  private static RateLimitSignals refused(Duration retryAfter) {
    return RateLimitSignals.builder().rejection(true).retryAfter(retryAfter).build();
  }

  @Test
  void theBodysPreciseDelayReplacesTheRoundedOneOfItsOwnHeaders() {
    key.onAnswer(429, refused(Duration.ofSeconds(3)), send(), now);
    long learnedAt = now;
    now += 100 * MS; // the body came a little after
    key.onBodyHint(429, refused(Duration.ofMillis(2_250)), learnedAt, now);
    assertThat(key.pauseLeft(now)).isEqualTo(2_150 * MS);
  }

  @Test
  void aBodyThatNamesADelayAlreadyPastEndsThePauseItsHeadersBegan() {
    key.onAnswer(429, refused(Duration.ofSeconds(1)), send(), now);
    long learnedAt = now;
    now += 500 * MS;
    key.onBodyHint(429, refused(Duration.ofMillis(200)), learnedAt, now);
    assertThat(key.pauseLeft(now)).isZero();
    assertThat(key.pauseHeld(now)).isZero();
  }

  @Test
  void aPauseAnotherAnswerLengthenedIsOnlyEverLengthenedByABody() {
    Permit first = send();
    Permit second = send();
    key.onAnswer(429, refused(Duration.ofSeconds(3)), first, now);
    long learnedAt = now;
    now += 10 * MS;
    key.onAnswer(429, refused(Duration.ofSeconds(10)), second, now); // the pause is now this one's
    key.onBodyHint(429, refused(Duration.ofSeconds(1)), learnedAt, now);
    assertThat(key.pauseHeld(now)).as("not shortened by the first answer's body")
        .isEqualTo(10 * SECOND);
    key.onBodyHint(429, refused(Duration.ofSeconds(20)), learnedAt, now);
    assertThat(key.pauseHeld(now)).as("lengthened from when the first was learnt")
        .isEqualTo(20 * SECOND - 10 * MS);
  }

  @Test
  void aRefusalWhoseHeadersNamedNoDelayIsPausedForTheBodysAndASuccessIsNot() {
    key.onAnswer(429, RateLimitSignals.builder().rejection(true).build(), send(), now);
    assertThat(key.pauseHeld(now)).as("no discovery: a bare refusal pauses no one").isZero();
    key.onBodyHint(429, refused(Duration.ofSeconds(4)), now, now);
    assertThat(key.pauseHeld(now)).as("Matrix names its delay in the body alone")
        .isEqualTo(4 * SECOND);

    now += 5 * SECOND;
    key.onAnswer(200, RateLimitSignals.none(), send(), now);
    key.onBodyHint(200, RateLimitSignals.builder().retryAfter(Duration.ofSeconds(9)).build(),
        now, now);
    assertThat(key.pauseHeld(now)).as("a success's hint is no pause").isZero();
  }

  @Test
  void aBodyNeverPausesAKeyLongerThanItsProbeLets() {
    key.onAnswer(429, refused(Duration.ofSeconds(1)), send(), now);
    key.onBodyHint(429, refused(Duration.ofDays(1)), now, now);
    assertThat(key.pauseHeld(now)).isEqualTo(Duration.ofDays(1).toNanos());
    assertThat(key.pauseLeft(now)).as("a day, re-verified after the max wait")
        .isEqualTo(60 * SECOND);
  }
}
