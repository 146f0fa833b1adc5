package dev.polite.examples.zoo;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** A cell's time limit: six floors, never under 20 s. */
class CutTest {
  @Test
  void aCellIsCutAfterSixFloorsButNeverBeforeTwentySeconds() {
    assertThat(Cut.seconds(1)).isEqualTo(20);
    assertThat(Cut.seconds(20.0 / 6)).isEqualTo(20);
    assertThat(Cut.seconds(10)).isEqualTo(60);
    assertThat(Cut.millis(10.0005)).as("whole milliseconds, rounded down").isEqualTo(60_003);
  }

}
