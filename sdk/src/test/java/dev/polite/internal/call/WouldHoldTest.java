package dev.polite.internal.call;

import static dev.polite.internal.call.WouldHold.Verdict.AT_ONCE;
import static dev.polite.internal.call.WouldHold.Verdict.HOLD;
import static dev.polite.internal.call.WouldHold.Verdict.REFUSE;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The verdict observation mode logs: it rises at once and falls after a quiet second. */
class WouldHoldTest {
  private static final long MS = 1_000_000L;
  private final WouldHold hold = new WouldHold("https://api.example.com:443");

  @Test
  void aKeyNearItsPaceThatFlipsCallByCallStaysHeld() {
    hold.saw(AT_ONCE, 0, "the key's pace", 0);
    assertThat(hold.verdict()).isEqualTo(AT_ONCE);
    for (long t = 0; t < 3_000; t += 100) { // every other call would wait 5 ms
      hold.saw((t / 100) % 2 == 0 ? HOLD : AT_ONCE, 5 * MS, "the key's pace", t * MS);
      assertThat(hold.verdict()).as("at %d ms", t).isEqualTo(HOLD);
    }
  }

  @Test
  void aVerdictFallsOnlyAfterASecondWithoutIt() {
    hold.saw(HOLD, 5 * MS, "the key's pace", 0);
    hold.saw(AT_ONCE, 0, "the key's pace", 999 * MS);
    assertThat(hold.verdict()).isEqualTo(HOLD);
    hold.saw(AT_ONCE, 0, "the key's pace", 1_999 * MS);
    assertThat(hold.verdict()).isEqualTo(AT_ONCE);
  }

  @Test
  void aRefusalRisesAtOnceAndFallsToHoldingBeforeGoingAtOnce() {
    hold.saw(REFUSE, 3_600_000 * MS, "the key's pause", 0);
    assertThat(hold.verdict()).isEqualTo(REFUSE);
    hold.saw(HOLD, 500 * MS, "the key's pace", 500 * MS);
    assertThat(hold.verdict()).isEqualTo(REFUSE); // refused half a second ago
    hold.saw(HOLD, 500 * MS, "the key's pace", 1_500 * MS);
    assertThat(hold.verdict()).isEqualTo(HOLD);
    hold.saw(AT_ONCE, 0, "the key's pace", 2_000 * MS);
    assertThat(hold.verdict()).isEqualTo(HOLD); // held half a second ago
    hold.saw(AT_ONCE, 0, "the key's pace", 2_600 * MS);
    assertThat(hold.verdict()).isEqualTo(AT_ONCE);
  }
}
