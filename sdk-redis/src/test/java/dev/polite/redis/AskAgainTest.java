package dev.polite.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A key pacing alone asks again soon after a failure, less often after each, and confirms at once. */
class AskAgainTest {
  private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

  @Test
  void fiftyMillisecondsAfterAFailureDoublingUpToRetryEvery() {
    AskAgain again = new AskAgain(1000 * MS);
    assertThat(again.delay()).isZero();
    long[] expected = {50 * MS, 100 * MS, 200 * MS, 400 * MS, 800 * MS, 1000 * MS, 1000 * MS};
    for (long delay : expected) {
      again.failed();
      assertThat(again.delay()).isEqualTo(delay);
    }
    for (int i = 0; i < 100; i++) {
      again.failed(); // no shift past 63 bits, however long Redis stays away
    }
    assertThat(again.delay()).isEqualTo(1000 * MS);
    again.answered();
    assertThat(again.delay()).as("answered: at once").isZero();
  }

  @Test
  void answersInTimeAreConfirmedAtOnceUpToTheRejoinCountPerCall() {
    AskAgain again = new AskAgain(1000 * MS);
    again.callAsks();
    int confirmed = 0;
    while (again.confirmsAgain()) {
      confirmed++;
    }
    assertThat(confirmed).isEqualTo(AskAgain.REJOIN_AFTER - 1);
    assertThat(again.confirmsAgain()).as("another key's failures cannot keep it asking").isFalse();
    again.callAsks();
    assertThat(again.confirmsAgain()).as("the next call counts afresh").isTrue();
  }
}
