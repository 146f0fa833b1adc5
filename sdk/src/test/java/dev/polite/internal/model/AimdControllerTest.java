package dev.polite.internal.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class AimdControllerTest {
  private static final long SECOND = 1_000_000_000L;

  @Test
  void hasNoPaceUntilTheFirstRejection() {
    AimdController aimd = new AimdController(0.5, 1, 0.5);
    aimd.onSuccess(0, 100);
    assertThat(aimd.rate()).isInfinite();
  }

  @Test
  void aCutStartsFromWhatTheServerAdmittedOrThePaceIfLower() {
    AimdController aimd = new AimdController(0.5, 1, 0.5);
    aimd.onRejection(0, 40);   // no pace yet: from the 40/s admitted
    assertThat(aimd.rate()).isEqualTo(20);
    aimd.onRejection(SECOND, 3); // the server admitted only 3/s since: that is the evidence
    assertThat(aimd.rate()).isEqualTo(1.5);
    aimd.onRejection(2 * SECOND, 0); // nothing admitted since the last cut: cut the pace itself
    assertThat(aimd.rate()).isEqualTo(0.75);
    aimd.onRejection(3 * SECOND, 100); // admitted more than the pace: the pace is the base
    assertThat(aimd.rate()).isEqualTo(0.5);
  }

  @Test
  void aCallAdmittedBeforeTheCutRaisesTheCutToWhatItShouldHaveReadAndNeverLowersThePace() {
    AimdController aimd = new AimdController(0.9, 1, 0.5);
    aimd.onRejection(0, 18); // 18 of a burst of 20 answered before the refusal
    assertThat(aimd.rate()).isEqualTo(16.2, within(1e-9));
    aimd.onAdmittedBeforeCut(SECOND / 100, 19);
    aimd.onAdmittedBeforeCut(SECOND / 50, 20); // the other two, overtaken
    assertThat(aimd.rate()).as("0.9 x 20, as if they had been counted").isEqualTo(18, within(1e-9));
    aimd.onAdmittedBeforeCut(SECOND / 20, 10);
    assertThat(aimd.rate()).as("a lower reading changes nothing").isEqualTo(18, within(1e-9));
    aimd.onRejection(SECOND, 12); // from a pace of 18: 12 admitted since
    aimd.onAdmittedBeforeCut(SECOND + 1, 40);
    assertThat(aimd.rate()).as("no higher than the pace that cut began from: 0.9 x 18")
        .isEqualTo(16.2, within(1e-9));
  }

  @Test
  void refusedBeforeAnythingWasAdmittedItStartsFromTheFloor() {
    AimdController aimd = new AimdController(0.5, 1, 0.5);
    aimd.onRejection(0, 0);
    assertThat(aimd.rate()).isEqualTo(0.5);
  }

  @Test
  void climbsFastToNearTheLastRefusedPaceThenProbesGently() {
    AimdController aimd = new AimdController(0.5, 1, 0.5);
    aimd.onRejection(0, 40); // refused at 40: pace 20, knee at 38
    aimd.onSuccess(10 * SECOND, 100);
    assertThat(aimd.rate()).isCloseTo(30, within(1e-9));
    aimd.onSuccess(18 * SECOND, 100);
    assertThat(aimd.rate()).isCloseTo(38, within(1e-9));
    aimd.onSuccess(28 * SECOND, 100); // ten seconds above the knee: a tenth of the speed
    assertThat(aimd.rate()).isCloseTo(39, within(1e-9));
    aimd.onRejection(28 * SECOND, 39);
    assertThat(aimd.rate()).isCloseTo(19.5, within(1e-9));
  }

  @Test
  void aClimbThatCrossesTheKneeSlowsThere() {
    AimdController aimd = new AimdController(0.5, 1, 0.5);
    aimd.onRejection(0, 20); // pace 10, knee 19
    aimd.onSuccess(19 * SECOND, 100); // 9 s to the knee, then 10 s at 0.1/s
    assertThat(aimd.rate()).isCloseTo(20, within(1e-9));
  }

  @Test
  void aQuietKeyDoesNotBankAPaceItNeverTested() {
    AimdController aimd = new AimdController(0.5, 1, 0.5);
    aimd.onRejection(0, 10);
    aimd.onSuccess(100 * SECOND, 1); // sending at 1/s: may not climb past twice that
    assertThat(aimd.rate()).isEqualTo(5);
  }

  @Test
  void neverFallsBelowItsFloor() {
    AimdController aimd = new AimdController(0.5, 1, 0.5);
    aimd.onRejection(0, 0);
    assertThat(aimd.rate()).isEqualTo(0.5);
    for (int i = 0; i < 10; i++) {
      aimd.onRejection(i, 0.1);
    }
    assertThat(aimd.rate()).isEqualTo(0.5);
    aimd.onRejection(0, 0.6); // cut again from the floor: still the floor
    assertThat(aimd.rate()).isEqualTo(0.5);
  }
}
