package dev.polite.internal;

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
    window.onAnswer(answer, others, now++, true, 1, now++);
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
  void refusalsOfCallsAlreadyOnTheWireWhenItShrankCarryNoNews() {
    for (int i = 0; i < 5; i++) {
      answer(OK, 0);
    }
    long sentBefore = now;
    answer(IN_FLIGHT_REFUSAL, 3);
    window.onAnswer(IN_FLIGHT_REFUSAL, 1, sentBefore, true, 1, now++);
    window.onAnswer(IN_FLIGHT_REFUSAL, 4, sentBefore, true, 1, now++);
    assertThat(window.cap()).isEqualTo(3);
    assertThat(window.allowed()).isEqualTo(3);
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
  void aProbeRefusedAgainDoublesTheHold() {
    answer(OK, 0);
    answer(IN_FLIGHT_REFUSAL, 2);
    for (int i = 0; i < 16; i++) {
      answer(OK, 1);
    }
    assertThat(window.allowed()).isEqualTo(3);
    answer(IN_FLIGHT_REFUSAL, 2);
    for (int i = 0; i < 31; i++) {
      answer(OK, 1);
    }
    assertThat(window.allowed()).as("32 full answers now").isEqualTo(2);
    answer(OK, 1);
    assertThat(window.allowed()).isEqualTo(3);
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
