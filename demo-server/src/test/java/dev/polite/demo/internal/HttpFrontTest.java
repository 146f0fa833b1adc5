package dev.polite.demo.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class HttpFrontTest {
  @Test
  void theConnectionCapLeavesRoomUnderTheFileLimit() {
    // Running out of descriptors makes XNIO's accept back off for up to 30 s: never let the cap get there.
    assertThat(HttpFront.fitToFileLimit(10_000, 1_048_576)).isEqualTo(10_000);
    assertThat(HttpFront.fitToFileLimit(10_000, 20_000)).isEqualTo(10_000);
    assertThat(HttpFront.fitToFileLimit(10_000, 4_096)).isEqualTo(4_096 - HttpFront.RESERVED_FILES);
    assertThat(HttpFront.fitToFileLimit(10_000, 100)).isEqualTo(1);
    assertThat(HttpFront.fitToFileLimit(10_000, -1)).as("unknown limit").isEqualTo(10_000);
  }
}
