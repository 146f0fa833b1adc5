package dev.polite.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The reserve-and-refund lesson's numbers, against real demo servers on loopback. */
class RefundLessonTest {
  @Test
  void bothSidesGiveBackWhatWasNotUsedAndTheClientSavesTheWait() throws Exception {
    List<RefundLesson.Row> rows = new RefundLesson().run();

    assertThat(rows).hasSize(6);
    assertThat(rows.get(0).value()).as("reserve 4,000: left").isEqualTo(6_000);
    assertThat(rows.get(1).value()).as("7,000: retry after").isEqualTo(6.0);
    assertThat(rows.get(2).value()).as("refund 2,400: left").isEqualTo(8_400);
    assertThat(rows.get(3).ours()).startsWith("allowed, 1,400 left");
    // The client that settled its reservation does not wait for tokens nobody used; the one
    // that did not waits the 6 s that 1,000 units take at 10,000 a minute.
    assertThat(rows.get(4).ours()).startsWith("allowed");
    assertThat(rows.get(4).value()).isLessThan(1.0);
    assertThat(rows.get(5).ours()).startsWith("allowed");
    assertThat(rows.get(5).value()).isBetween(5.5, 8.0);
  }
}
