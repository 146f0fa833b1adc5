package dev.polite.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** One probe per grant, and no asking while the script said to wait: one probe for a fleet. */
class ProbeTurnTest {
  private static final long SECOND = TimeUnit.SECONDS.toNanos(1);
  private static final long NOW = 5_000_000_000L;

  @Test
  void aGrantLetsOneCallGoWithinTheMaxWait() {
    ProbeTurn turn = new ProbeTurn();
    turn.every(2 * SECOND);
    assertThat(turn.mayAsk(NOW)).isTrue();
    turn.granted(NOW);
    assertThat(turn.mayAsk(NOW)).as("holding a grant, it does not ask again").isFalse();
    assertThat(turn.takeGrant(NOW + SECOND)).isTrue();
    assertThat(turn.takeGrant(NOW + SECOND)).as("one probe per grant").isFalse();
    assertThat(turn.mayAsk(NOW + SECOND)).isTrue();
  }

  @Test
  void aGrantNotTakenWithinTheMaxWaitIsGone() {
    ProbeTurn turn = new ProbeTurn();
    turn.every(2 * SECOND);
    turn.granted(NOW);
    assertThat(turn.takeGrant(NOW + 2 * SECOND)).isFalse();
    assertThat(turn.mayAsk(NOW + 2 * SECOND)).isTrue();
  }

  @Test
  void toldToWaitItNeitherAsksNorProbesUntilThen() {
    ProbeTurn turn = new ProbeTurn();
    turn.waitFor(NOW, 1_500_000);
    assertThat(turn.waiting(NOW + SECOND)).isTrue();
    assertThat(turn.mayAsk(NOW + SECOND)).isFalse();
    assertThat(turn.takeGrant(NOW + SECOND)).isFalse();
    assertThat(turn.waiting(NOW + 3 * SECOND / 2)).isFalse();
    assertThat(turn.mayAsk(NOW + 3 * SECOND / 2)).isTrue();
  }

  @Test
  void newEvidenceEndsTheWaitAndAnEndedPauseEndsTheGrantToo() {
    ProbeTurn turn = new ProbeTurn();
    turn.every(2 * SECOND);
    turn.waitFor(NOW, 1_000_000);
    turn.waitOver();
    assertThat(turn.mayAsk(NOW)).isTrue();
    turn.granted(NOW);
    turn.waitFor(NOW, 1_000_000);
    turn.over();
    assertThat(turn.takeGrant(NOW)).isFalse();
    assertThat(turn.mayAsk(NOW)).isTrue();
  }

  @Test
  void aMaxWaitOfForeverSaturatesInsteadOfWrapping() {
    ProbeTurn turn = new ProbeTurn();
    turn.every(Long.MAX_VALUE);
    turn.granted(NOW);
    assertThat(turn.takeGrant(Long.MAX_VALUE - 1)).isTrue();
    turn.waitFor(NOW, Long.MAX_VALUE);
    assertThat(turn.waiting(NOW + 300L * 24 * 3600 * SECOND)).as("cut to a year, not wrapped").isTrue();
  }
}
