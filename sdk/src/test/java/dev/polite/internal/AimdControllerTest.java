package dev.polite.internal;

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
  void cutsFromTheMeasuredRateThenClimbsAdditively() {
    AimdController aimd = new AimdController(0.5, 1, 0.5);
    aimd.onRejection(0, 40);
    assertThat(aimd.rate()).isEqualTo(20);
    aimd.onSuccess(2 * SECOND, 20);
    assertThat(aimd.rate()).isCloseTo(22, within(1e-9));
    aimd.onSuccess(3 * SECOND, 22);
    assertThat(aimd.rate()).isCloseTo(23, within(1e-9));
    aimd.onRejection(3 * SECOND, 23);
    assertThat(aimd.rate()).isCloseTo(11.5, within(1e-9));
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
  }
}
