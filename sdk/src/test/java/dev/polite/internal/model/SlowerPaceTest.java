package dev.polite.internal.model;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** A slower advertised pace is believed when two answers in a row say it. */
class SlowerPaceTest {
  private final SlowerPace pace = new SlowerPace();

  @Test
  void theFirstPaceAndAnyFasterOneAreTakenAtOnce() {
    assertThat(pace.believe(1, 1, false, Double.POSITIVE_INFINITY, 1)).isTrue();
    assertThat(pace.believe(20, 20, true, 10, 10)).isTrue();
    assertThat(pace.believe(10, 10, true, 10, 10)).as("the same").isTrue();
  }

  @Test
  void aSlowerOneWaitsForTheNextAnswerToSayItToo() {
    assertThat(pace.believe(1, 1, true, 10, 10)).isFalse();
    assertThat(pace.believe(1, 1, true, 10, 10)).isTrue();
  }

  @Test
  void anyOtherReadingInBetweenDropsTheCandidate() {
    assertThat(pace.believe(1, 1, true, 10, 10)).isFalse();
    assertThat(pace.believe(10, 10, true, 10, 10)).isTrue();
    assertThat(pace.believe(1, 1, true, 10, 10)).as("a candidate anew").isFalse();
    assertThat(pace.believe(2, 2, true, 10, 10)).as("a different slower one").isFalse();
    assertThat(pace.believe(2, 2, true, 10, 10)).isTrue();
  }

  @Test
  void aSmallerBurstAtTheSameRateIsSlowerToo() {
    assertThat(pace.believe(10, 1, true, 10, 10)).isFalse();
  }
}
