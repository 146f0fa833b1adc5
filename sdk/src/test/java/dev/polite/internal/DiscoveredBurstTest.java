package dev.polite.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The burst a key discovering its pace believes, and what refutes it. */
class DiscoveredBurstTest {
  private final DiscoveredBurst burst = new DiscoveredBurst();

  @Test
  void aRefusalThatNamedItsDelayIsBelievedForWhatTheServerTookBeyondThePace() {
    burst.onCut(18, 19.3, true, 0);
    assertThat(burst.burst()).isEqualTo(19);
  }

  @Test
  void aBareRefusalsBurstIsNotBelieved() {
    burst.onCut(18, 19.3, false, 0);
    assertThat(burst.burst()).isEqualTo(1);
  }

  @Test
  void aRefusalOfACallSentFromTheBankRefutesItForGood() {
    burst.onCut(18, 19.3, true, 0);
    burst.onReserve(1, 19, 100);
    assertThat(burst.onRefusal(100, true)).as("a lone probe says nothing of the bank").isFalse();
    assertThat(burst.onRefusal(101, false)).as("sent after the bank was spent: the pace's")
        .isFalse();
    assertThat(burst.onRefusal(100, false)).isTrue();
    assertThat(burst.burst()).isEqualTo(1);
    burst.onCut(18, 19.3, true, 200);
    assertThat(burst.burst()).as("refuted for good").isEqualTo(1);
  }

  @Test
  void theBurstIsBoundedAndNeverBelowOneCall() {
    burst.onCut(18, 1e9, true, 0);
    assertThat(burst.burst()).isEqualTo(1_000);
    burst.onCut(18, -40, true, 0);
    assertThat(burst.burst()).isEqualTo(1);
    burst.onCut(Double.POSITIVE_INFINITY, 50, true, 0);
    assertThat(burst.burst()).as("no pace, nothing to judge by").isEqualTo(1);
  }
}
