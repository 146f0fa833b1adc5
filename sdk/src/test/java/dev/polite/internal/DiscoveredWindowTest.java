package dev.polite.internal;

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
    assertThat(window.onRefused((fromMs + 20) * MS, (fromMs + 21) * MS)).isFalse();
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
  void aProbeAdmittedAfterTheRefusalShowsNoShutWindow() {
    burstThenRefused(); // a token bucket: it refilled while the key backed off
    assertThat(window.onAdmitted(521 * MS, EVEN_PACE, MAX_WAIT)).isFalse();
    assertThat(window.believed()).isFalse();
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
    // 20 in 1.5 s is 13.3/s, under the 18/s the key keeps without it.
    assertThat(window.onAdmitted(1_500 * MS, EVEN_PACE, MAX_WAIT)).isFalse();
  }

  @Test
  void eachWindowOpensOneCallThenOneMorePerCallAdmittedUntilOneWindowIsTakenWhole() {
    burstShutReopened(0);
    assertThat(window.allowedInFlight()).as("the reopening was admitted: two may go").isEqualTo(2);
    window.reserve(1_001 * MS);
    window.sent(1_001 * MS);
    window.onAdmitted(1_001 * MS, EVEN_PACE, MAX_WAIT);
    assertThat(window.allowedInFlight()).isEqualTo(3);
    for (int i = 2; i < 20; i++) {
      window.reserve(1_002 * MS);
    }
    long next = window.reserve(1_002 * MS);
    assertThat(window.allowedInFlight()).as("the next window's first call goes alone").isEqualTo(1);
    long opens = 1_002 * MS + next;
    window.sent(opens);
    window.onAdmitted(opens, EVEN_PACE, MAX_WAIT);
    for (int i = 1; i < 20; i++) {
      assertThat(window.allowedInFlight()).as("after %s admitted", i).isEqualTo(Math.min(20, i + 1));
      window.reserve(opens);
      window.sent(opens);
      window.onAdmitted(opens, EVEN_PACE, MAX_WAIT);
    }
    assertThat(window.allowedInFlight()).as("a window taken whole: confirmed")
        .isEqualTo(Integer.MAX_VALUE);
  }

  @Test
  void aRefusalOfACallSentUnderTheBeliefDropsItForGood() {
    burstShutReopened(0);
    assertThat(window.onRefused(1_001 * MS, 1_002 * MS)).as("fell").isTrue();
    assertThat(window.believed()).isFalse();
    // The same shape again is not believed again: it would cost a refusal each time.
    assertThat(burstShutReopened(3_000)).isFalse();
  }

  @Test
  void aRefusalOfACallSentBeforeTheBeliefLeavesIt() {
    burstShutReopened(0);
    assertThat(window.onRefused(900 * MS, 1_003 * MS)).isFalse();
    assertThat(window.believed()).isTrue();
  }
}
