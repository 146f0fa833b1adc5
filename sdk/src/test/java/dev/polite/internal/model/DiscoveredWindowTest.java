package dev.polite.internal.model;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * What a silent server's answers must show before the key believes a window, and what the
 * belief lets go: on times the test writes (milliseconds from 0).
 */
class DiscoveredWindowTest {
  private static final long MS = 1_000_000L;
  private static final long MAX_WAIT = 60_000 * MS;
  private static final double EVEN_PACE = 18;

  private final DiscoveredWindow window = new DiscoveredWindow();

  /** 20 calls sent 1 ms apart from 0 ms and admitted, the 21st (sent at 20 ms) refused at 21. */
  private void burstThenRefused() {
    burstThenRefused(0);
  }

  private void burstThenRefused(long fromMs) {
    for (int i = 0; i < 20; i++) {
      assertThat(window.onAdmitted((fromMs + i) * MS, EVEN_PACE, MAX_WAIT)).isFalse();
    }
    assertThat(window.onRefused((fromMs + 20) * MS, (fromMs + 21) * MS))
        .isEqualTo(DiscoveredWindow.Refusal.NOTHING);
  }

  /**
   * {@link #burstThenRefused} from {@code fromMs}, the probe half a second later refused (shut),
   * and a call admitted a second after the burst began.
   *
   * @return whether that call began a belief
   */
  private boolean burstShutReopened(long fromMs) {
    burstThenRefused(fromMs);
    window.onRefused((fromMs + 521) * MS, (fromMs + 522) * MS);
    return window.onAdmitted((fromMs + 1_000) * MS, EVEN_PACE, MAX_WAIT);
  }

  @Test
  void aBurstTakenWholeThenAProbeRefusedThenOneAdmittedIsAWindowFromTheBurstToTheReopening() {
    // The probe is sent after the refusal came back: shut.
    assertThat(burstShutReopened(0)).as("reopened").isTrue();
    assertThat(window.believed()).isTrue();
    // 20 per 1.1 s from the reopening, which was the first window's first call.
    for (int i = 1; i < 20; i++) {
      assertThat(window.reserve(1_001 * MS)).as("call %s of the first window", i).isZero();
    }
    assertThat(window.reserve(1_001 * MS)).as("the 21st waits for the next window")
        .isEqualTo(1_000 * MS + 1_100 * MS - 1_001 * MS);
  }

  @Test
  void aReopeningMeasuredLatePastARoundSecondIsBelievedAtTheSecond() {
    burstThenRefused();
    window.onRefused(521 * MS, 522 * MS); // shut
    assertThat(window.onAdmitted(1_200 * MS, EVEN_PACE, MAX_WAIT))
        .as("reopened, late: 20 a second beats the even pace, where 20 per 1.2 s would not").isTrue();
    for (int i = 1; i < 20; i++) {
      window.reserve(1_201 * MS);
    }
    assertThat(window.reserve(1_201 * MS)).as("the next window: 1 s with the slack, not 1.2 s with it")
        .isEqualTo(1_200 * MS + 1_100 * MS - 1_201 * MS);
  }

  @Test
  void aReopeningMeasuredABackoffLateIsStillBelievedAtTheSecond() {
    burstThenRefused();
    window.onRefused(400 * MS, 401 * MS); // the first refusal came back late: the backoff began at 0.4 s
    window.onRefused(900 * MS, 901 * MS); // shut, probed after half a second
    assertThat(window.onAdmitted(1_408 * MS, EVEN_PACE, MAX_WAIT))
        .as("20 a second beats the even pace, where 20 per 1.408 s would not").isTrue();
    for (int i = 1; i < 20; i++) {
      window.reserve(1_409 * MS);
    }
    assertThat(window.reserve(1_409 * MS)).as("the next window: 1 s with the slack")
        .isEqualTo(1_408 * MS + 1_100 * MS - 1_409 * MS);
  }

  @Test
  void aWindowTakenShorterThanTheServersFallsAtItsFirstRefusedCall() {
    burstThenRefused();
    window.onRefused(521 * MS, 522 * MS); // shut
    assertThat(window.onAdmitted(1_900 * MS, EVEN_PACE, MAX_WAIT)).as("believed at 1 s").isTrue();
    // the server's window was 1.5 s: the first call of the next believed window is refused
    long next = window.reserve(1_901 * MS);
    assertThat(window.onRefused(1_901 * MS + next, 1_902 * MS + next)).isEqualTo(DiscoveredWindow.Refusal.FELL);
    assertThat(window.believed()).as("fallen, for good").isFalse();
  }

  @Test
  void aWindowRefusedPastTheRoundSecondIsBelievedAsMeasured() {
    burstThenRefused();
    window.onRefused(1_050 * MS, 1_051 * MS); // refused 1.05 s after the burst began: longer than a second
    assertThat(window.onAdmitted(1_090 * MS, EVEN_PACE, MAX_WAIT)).isTrue();
    for (int i = 1; i < 20; i++) {
      window.reserve(1_091 * MS);
    }
    assertThat(window.reserve(1_091 * MS)).as("1.09 s with the slack: never below what was refused")
        .isEqualTo(1_090 * MS + 1_199 * MS - 1_091 * MS);
  }

  @Test
  void aRoundLengthIsTakenOnlyBetweenTheRefusalsAndTheReopening() {
    assertThat(DiscoveredWindow.measured(600 * MS, 1_200 * MS)).as("a second within").isEqualTo(1_000 * MS);
    assertThat(DiscoveredWindow.measured(900 * MS, 1_408 * MS)).as("a probe late by its whole backoff")
        .isEqualTo(1_000 * MS);
    assertThat(DiscoveredWindow.measured(1_050 * MS, 1_260 * MS)).as("refused past the second: its tenths")
        .isEqualTo(1_200 * MS);
    assertThat(DiscoveredWindow.measured(1_150 * MS, 1_190 * MS)).as("no round length between: as measured")
        .isEqualTo(1_190 * MS);
    assertThat(DiscoveredWindow.measured(70 * MS, 1_900 * MS)).as("nothing refused late: the second below")
        .isEqualTo(1_000 * MS);
    assertThat(DiscoveredWindow.measured(1_600 * MS, 2_300 * MS)).as("two seconds within").isEqualTo(2_000 * MS);
    assertThat(DiscoveredWindow.measured(30_000 * MS, 61_500 * MS)).as("a minute").isEqualTo(60_000 * MS);
    assertThat(DiscoveredWindow.measured(10 * MS, 55 * MS)).as("shorter than a tenth: as measured")
        .isEqualTo(55 * MS);
  }

  @Test
  void aProbeAdmittedAfterTheRefusalShowsNoShutWindow() {
    burstThenRefused(); // a token bucket: it refilled while the key backed off
    assertThat(window.onAdmitted(521 * MS, EVEN_PACE, MAX_WAIT)).isFalse();
    assertThat(window.believed()).isFalse();
  }

  @Test
  void aBurstTheServerMetInAnotherOrderThanItWasSentIsStillABurst() {
    for (int i = 0; i < 14; i++) {
      window.onAdmitted(i * MS, EVEN_PACE, MAX_WAIT);
    }
    window.onRefused(14 * MS, 22 * MS); // overtaken on the way by the six sent after it
    for (int i = 15; i < 21; i++) {
      assertThat(window.onAdmitted(i * MS, EVEN_PACE, MAX_WAIT)).isFalse();
    }
    window.onRefused(21 * MS, 23 * MS);
    window.onRefused(521 * MS, 522 * MS);
    assertThat(window.onAdmitted(1_000 * MS, EVEN_PACE, MAX_WAIT)).as("reopened").isTrue();
    assertThat(window.toString()).as("the burst's 20").startsWith("20 per ");
  }

  @Test
  void aCallTakenWhileTheServerStillRefusedOthersIsATrickleNotAWindow() {
    burstThenRefused();
    window.onRefused(521 * MS, 522 * MS);
    window.onRefused(600 * MS, 700 * MS); // refused at 700 ms
    window.onAdmitted(650 * MS, EVEN_PACE, MAX_WAIT); // sent before that, and taken
    assertThat(window.onAdmitted(1_000 * MS, EVEN_PACE, MAX_WAIT)).isFalse();
  }

  @Test
  void callsSpreadOverTheWindowAreAPaceNotABurst() {
    double unpaced = Double.POSITIVE_INFINITY; // so that only the spread can say no
    for (int i = 0; i < 20; i++) {
      window.onAdmitted(i * 50 * MS, unpaced, MAX_WAIT); // over 950 ms of a 2 s window
    }
    window.onRefused(1_000 * MS, 1_001 * MS);
    window.onRefused(1_500 * MS, 1_501 * MS);
    assertThat(window.onAdmitted(2_000 * MS, unpaced, MAX_WAIT)).isFalse();
  }

  @Test
  void aReopeningSlowerThanTheEvenPaceIsNotBelieved() {
    burstThenRefused();
    window.onRefused(521 * MS, 522 * MS);
    // Reopened at 2.5 s, so two seconds at the round length within: 20 in 2 s is 10/s, under the
    // 18/s the key keeps without it.
    assertThat(window.onAdmitted(2_500 * MS, EVEN_PACE, MAX_WAIT)).isFalse();
  }

  /** Whether a call may go now with {@code inFlight} in flight; if so, it reserves and goes. */
  private boolean goes(int inFlight, long atMs) {
    if (window.holds(inFlight)) {
      return false;
    }
    assertThat(window.reserve(atMs * MS)).as("the window has room at %s ms", atMs).isZero();
    window.sent(atMs * MS);
    return true;
  }

  @Test
  void eachWindowOpensOneCallThenOneMorePerCallAdmittedUpToHalfItsCountThenOneAtATime() {
    burstShutReopened(0);
    // The reopening was admitted and holds the first place: the slow start lets 2 be in flight.
    assertThat(goes(0, 1_001)).isTrue();
    assertThat(goes(1, 1_001)).isTrue();
    assertThat(goes(2, 1_001)).as("two in flight").isFalse();
    window.onAdmitted(1_001 * MS, EVEN_PACE, MAX_WAIT);
    window.onAdmitted(1_001 * MS, EVEN_PACE, MAX_WAIT);
    // 3 given, 3 admitted: up to 4 may be in flight, but only 10 (half of 20) before any answer.
    for (int i = 0; i < 4; i++) {
      assertThat(goes(i, 1_002)).as("call %s of the round", i).isTrue();
    }
    assertThat(goes(4, 1_002)).isFalse();
    for (int i = 0; i < 4; i++) {
      window.onAdmitted(1_002 * MS, EVEN_PACE, MAX_WAIT);
    }
    for (int i = 0; i < 3; i++) {
      assertThat(goes(i, 1_003)).as("call %s of the round", i).isTrue();
    }
    assertThat(goes(3, 1_003)).as("half the window given, and calls in flight").isFalse();
    for (int i = 0; i < 3; i++) {
      window.onAdmitted(1_003 * MS, EVEN_PACE, MAX_WAIT);
    }
    for (int n = 10; n < 20; n++) {
      assertThat(goes(0, 1_004)).as("call %s goes alone", n + 1).isTrue();
      assertThat(goes(1, 1_004)).as("and holds the next").isFalse();
      window.onAdmitted(1_004 * MS, EVEN_PACE, MAX_WAIT);
    }
    long next = window.reserve(1_005 * MS);
    assertThat(next).as("the next window").isEqualTo(2_100 * MS - 1_005 * MS);
    assertThat(window.holds(1)).as("its first call goes alone").isTrue();
    window.sent(2_100 * MS);
    window.onAdmitted(2_100 * MS, EVEN_PACE, MAX_WAIT);
    for (int n = 1; n < 20; n++) {
      assertThat(window.onTrial()).isTrue();
      window.reserve(2_101 * MS);
      window.sent(2_101 * MS);
      window.onAdmitted(2_101 * MS, EVEN_PACE, MAX_WAIT);
    }
    assertThat(window.onTrial()).as("a window after the reopening's taken whole: confirmed").isFalse();
    assertThat(window.holds(40)).isFalse();
  }

  /** {@code calls} calls given a place, sent and admitted at {@code atMs}. */
  private void taken(int calls, long atMs) {
    for (int i = 0; i < calls; i++) {
      window.reserve(atMs * MS);
      window.sent(atMs * MS);
      window.onAdmitted(atMs * MS, EVEN_PACE, MAX_WAIT);
    }
  }

  /** One more call given a place and sent at {@code atMs}, refused a millisecond later. */
  private DiscoveredWindow.Refusal refused(long atMs) {
    window.reserve(atMs * MS);
    window.sent(atMs * MS);
    return window.onRefused(atMs * MS, (atMs + 1) * MS);
  }

  @Test
  void aWindowOnTrialRefusedPastHalfItsCountIsBelievedAtWhatItTook() {
    // A burst the server's boundary met: 32 counted where it takes 20.
    for (int i = 0; i < 32; i++) {
      window.onAdmitted(i * MS, EVEN_PACE, MAX_WAIT);
    }
    window.onRefused(32 * MS, 33 * MS);
    window.onRefused(521 * MS, 522 * MS);
    assertThat(window.onAdmitted(1_000 * MS, EVEN_PACE, MAX_WAIT)).isTrue();
    taken(19, 1_001); // 20 taken, the reopening's included
    assertThat(refused(1_002)).isEqualTo(DiscoveredWindow.Refusal.RECOUNTED);
    assertThat(window.believed()).isTrue();
    assertThat(window.onTrial()).as("the next window verifies the count").isTrue();
    window.voided(1_003 * MS);
    assertThat(window.reserve(1_003 * MS)).as("this window is spent")
        .isEqualTo(1_000 * MS + 1_100 * MS - 1_003 * MS);
    for (int n = 1; n < 20; n++) {
      assertThat(window.reserve(1_003 * MS)).as("call %s of the next window", n + 1)
          .isEqualTo(1_000 * MS + 1_100 * MS - 1_003 * MS);
    }
    assertThat(window.reserve(1_003 * MS)).as("20 a window now").isEqualTo(1_000 * MS + 2_200 * MS - 1_003 * MS);
  }

  @Test
  void aWindowOnTrialRefusedBeforeHalfItsCountFalls() {
    burstShutReopened(0);
    taken(8, 1_001); // 9 taken of 20, the reopening's included: under half
    assertThat(refused(1_002)).isEqualTo(DiscoveredWindow.Refusal.FELL);
    assertThat(window.believed()).isFalse();
  }

  @Test
  void aConfirmedWindowRefusedFalls() {
    burstShutReopened(0);
    taken(19, 1_001); // the reopening's window and the next, taken whole
    taken(20, 2_101);
    assertThat(window.onTrial()).isFalse();
    assertThat(refused(3_201)).isEqualTo(DiscoveredWindow.Refusal.FELL);
  }

  @Test
  void aRefusalOfACallSentUnderTheBeliefDropsItForGood() {
    burstShutReopened(0);
    assertThat(window.onRefused(1_001 * MS, 1_002 * MS)).isEqualTo(DiscoveredWindow.Refusal.FELL);
    assertThat(window.believed()).isFalse();
    // The same shape again is not believed again: it would cost a refusal each time.
    assertThat(burstShutReopened(3_000)).isFalse();
  }

  @Test
  void aRefusalOfACallSentBeforeTheBeliefLeavesIt() {
    burstShutReopened(0);
    assertThat(window.onRefused(900 * MS, 1_003 * MS)).isEqualTo(DiscoveredWindow.Refusal.NOTHING);
    assertThat(window.believed()).isTrue();
  }
}
