package dev.polite.internal.model;

import static org.assertj.core.api.Assertions.assertThat;

import dev.polite.RateLimitSignals;
import org.junit.jupiter.api.Test;

/** The window of calls in flight: slow start, a cap a refusal teaches, and its re-verification. */
class InFlightWindowTest {
  private static final Answer OK = Answer.of(200, RateLimitSignals.none(), 0, true);
  private static final Answer IN_FLIGHT_REFUSAL = Answer.of(429, RateLimitSignals.none(), 1, true);
  private static final Answer RATE_REFUSAL = Answer.of(429, RateLimitSignals.none(), 1, false);

  private final InFlightWindow window = new InFlightWindow(true);
  private long now = 1_000;

  private void answer(Answer answer, int others) {
    window.onAnswer(answer, others, others, now++, true, 1, now++);
  }

  @Test
  void aRefusalWithTwoOthersOnTheWireCapsTheWindowAtTwo() {
    answer(OK, 0);
    answer(OK, 1);
    answer(OK, 1);
    assertThat(window.allowed()).isEqualTo(4);
    answer(IN_FLIGHT_REFUSAL, 2);
    assertThat(window.allowed()).isEqualTo(2);
    assertThat(window.cap()).isEqualTo(2);
  }

  @Test
  void refusalsOfOneOverflowOnlyLowerTheCapToWhatTheServerKept() {
    for (int i = 0; i < 5; i++) {
      answer(OK, 0);
    }
    long sentBefore = now;
    // Four calls over a cap of 2 went at once: the first refusal back still sees the other
    // three on the wire, the last only the two the server kept.
    window.onAnswer(IN_FLIGHT_REFUSAL, 1, 5, now++, true, 1, now++);
    assertThat(window.cap()).isEqualTo(5);
    window.onAnswer(IN_FLIGHT_REFUSAL, 4, 4, sentBefore, true, 1, now++);
    window.onAnswer(IN_FLIGHT_REFUSAL, 0, 3, sentBefore, true, 1, now++);
    window.onAnswer(IN_FLIGHT_REFUSAL, 2, 2, sentBefore, true, 1, now++);
    assertThat(window.cap()).isEqualTo(2);
    window.onAnswer(IN_FLIGHT_REFUSAL, 2, 6, sentBefore, true, 1, now++);
    assertThat(window.cap()).as("never raised by the same overflow").isEqualTo(2);
    assertThat(window.allowed()).isEqualTo(2);
  }

  @Test
  void oneRefusalBelowTheCapHeldIsARaceUntilASecondSaysSo() {
    answer(OK, 0);
    answer(IN_FLIGHT_REFUSAL, 2);
    answer(OK, 1);
    answer(IN_FLIGHT_REFUSAL, 1); // sent as an answer freed its place, before the server let go
    assertThat(window.cap()).isEqualTo(2);
    answer(OK, 1); // two at once again: the race it was
    answer(IN_FLIGHT_REFUSAL, 1);
    assertThat(window.cap()).as("a new candidate, not yet believed").isEqualTo(2);
    answer(IN_FLIGHT_REFUSAL, 1);
    assertThat(window.cap()).as("said twice: believed").isEqualTo(1);
  }

  @Test
  void theCapIsReVerifiedAfterAHoldAndGrowsFasterWhileProbesSucceed() {
    answer(OK, 0);
    answer(IN_FLIGHT_REFUSAL, 2);
    for (int i = 0; i < 15; i++) {
      answer(OK, 1); // the window of two full
    }
    assertThat(window.allowed()).as("held for 16 full answers").isEqualTo(2);
    answer(OK, 1);
    assertThat(window.allowed()).as("then one more").isEqualTo(3);
    for (int i = 0; i < 16; i++) {
      answer(OK, 2);
    }
    assertThat(window.allowed()).as("then two more").isEqualTo(5);
  }

  @Test
  void aProbeRefusedAgainMultipliesTheHoldByEight() {
    answer(OK, 0);
    answer(IN_FLIGHT_REFUSAL, 2);
    for (int i = 0; i < 16; i++) {
      answer(OK, 1);
    }
    assertThat(window.allowed()).isEqualTo(3);
    answer(IN_FLIGHT_REFUSAL, 2);
    for (int i = 0; i < 127; i++) {
      answer(OK, 1);
    }
    assertThat(window.allowed()).as("128 full answers now").isEqualTo(2);
    answer(OK, 1);
    assertThat(window.allowed()).isEqualTo(3);
  }

  @Test
  void aLowerCapTwoRacesTaughtIsReVerifiedAfterTheFirstHoldNotTheOldCapsLongerOne() {
    answer(OK, 0);
    answer(IN_FLIGHT_REFUSAL, 2);
    for (int i = 0; i < 16; i++) {
      answer(OK, 1);
    }
    answer(IN_FLIGHT_REFUSAL, 2); // the probe at three refused: the cap of two holds 128 answers
    answer(IN_FLIGHT_REFUSAL, 1);
    answer(IN_FLIGHT_REFUSAL, 1); // two races in a row: a cap of one, believed
    assertThat(window.cap()).isEqualTo(1);
    for (int i = 0; i < 15; i++) {
      answer(OK, 0);
    }
    assertThat(window.allowed()).isEqualTo(1);
    answer(OK, 0);
    assertThat(window.allowed()).as("re-verified after 16 answers, not 128").isEqualTo(2);
  }

  @Test
  void answersThatLeaveTheWindowUnfilledDoNotGrowIt() {
    answer(OK, 0);
    answer(IN_FLIGHT_REFUSAL, 2);
    for (int i = 0; i < 100; i++) {
      answer(OK, 0);
    }
    assertThat(window.allowed()).isEqualTo(2);
  }

  @Test
  void aRateRefusalWithNoCapLearnedOpensTheGateForThePace() {
    answer(OK, 0);
    answer(RATE_REFUSAL, 1);
    assertThat(window.allowed()).isEqualTo(Integer.MAX_VALUE);
  }

  @Test
  void aRateRefusalKeepsACapLearnedBefore() {
    answer(OK, 0);
    answer(IN_FLIGHT_REFUSAL, 2);
    answer(RATE_REFUSAL, 1);
    assertThat(window.allowed()).isEqualTo(2);
  }

  @Test
  void aCallThatWentAloneIsNeverARefusalOfACap() {
    assertThat(Answer.of(429, RateLimitSignals.none(), 0, true).refusedInFlight()).isFalse();
  }
}
