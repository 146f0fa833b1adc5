package dev.polite.examples.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Nearest-rank percentiles, over the recorded durations or over more calls that took none. */
class CallDurationsTest {
  private static CallDurations millis(long... values) {
    CallDurations durations = new CallDurations();
    for (long value : values) {
      durations.add(value * 1_000_000);
    }
    return durations;
  }

  @Test
  void thePercentileOfTheRecordedIsTheNearestRank() {
    CallDurations durations = millis(5, 1, 4, 2, 3);
    assertThat(durations.percentileMillis(50)).isEqualTo(3);
    assertThat(durations.percentileMillis(99)).isEqualTo(5);
    assertThat(durations.percentileMillis(20)).isEqualTo(1);
    assertThat(millis().percentileMillis(99)).isZero();
  }

  @Test
  void callsThatWereNotRecordedCountAsNoTime() {
    // 200 calls, 3 of them waited: the 99th percentile is the 198th smallest, the smallest wait.
    assertThat(millis(7, 9, 30).percentileMillisAmong(99, 200)).isEqualTo(7);
    // 2 of 200 waited: the 198th smallest is a call that did not wait.
    assertThat(millis(9, 30).percentileMillisAmong(99, 200)).isZero();
    // 100 calls, 2 waited: the 99th is the smaller wait.
    assertThat(millis(9, 30).percentileMillisAmong(99, 100)).isEqualTo(9);
    // More recorded than calls (a call counted twice): over those recorded.
    assertThat(millis(1, 2, 3).percentileMillisAmong(99, 2)).isEqualTo(3);
  }
}
