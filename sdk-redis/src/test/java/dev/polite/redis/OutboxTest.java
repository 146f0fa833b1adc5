package dev.polite.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A pause waits in the outbox as its end, so that a request sent late tells what is left of it,
 * never the whole length again from then (which held a fleet at its pace a second more after
 * every spent quota's second).
 */
class OutboxTest {
  private static final long SECOND = TimeUnit.SECONDS.toNanos(1);
  private static final long NOW = 5_000_000_000L;

  @Test
  void aPauseToldLateIsWhatIsLeftOfIt() {
    Outbox outbox = new Outbox();
    outbox.paused(NOW + SECOND, false);
    assertThat(outbox.take(NOW + SECOND / 4).pauseMicros()).isEqualTo(750_000);
  }

  @Test
  void aSpentQuotasPauseThatIsOverIsNoNews() {
    Outbox outbox = new Outbox();
    outbox.paused(NOW + SECOND, false);
    assertThat(outbox.holdsPauseNews()).isTrue();
    assertThat(outbox.take(NOW + SECOND).pauseMicros()).as("over: nothing to tell").isEqualTo(-1);
  }

  @Test
  void aRefusalsPauseThatIsOverIsToldOverSoItsPaceCutStands() {
    Outbox outbox = new Outbox();
    outbox.paused(NOW + SECOND, true);
    Outbox.News news = outbox.take(NOW + 2 * SECOND);
    assertThat(news.pauseMicros()).isZero();
    assertThat(news.refused()).isTrue();
  }

  @Test
  void aRequestThatNeverLeftGivesItsPauseBackAsItsEnd() {
    Outbox outbox = new Outbox();
    outbox.paused(NOW + SECOND, false);
    Outbox.News unsent = outbox.take(NOW);
    assertThat(unsent.pauseMicros()).isEqualTo(1_000_000);
    outbox.unsent(unsent);
    assertThat(outbox.take(NOW + SECOND / 2).pauseMicros()).as("not a second again from the retry")
        .isEqualTo(500_000);
  }

  @Test
  void theLatestEndIsTold() {
    Outbox outbox = new Outbox();
    outbox.paused(NOW + 2 * SECOND, false);
    outbox.paused(NOW + SECOND, true);
    Outbox.News news = outbox.take(NOW);
    assertThat(news.pauseMicros()).isEqualTo(2_000_000);
    assertThat(news.refused()).isTrue();
  }

  @Test
  void theCallsSentAreToldOnceAndComeBackWithARequestThatNeverLeft() {
    Outbox outbox = new Outbox();
    outbox.sent(1);
    outbox.sent(2);
    Outbox.News unsent = outbox.take(NOW);
    assertThat(unsent.sent()).isEqualTo(3);
    assertThat(outbox.take(NOW).sent()).as("told once").isZero();
    outbox.sent(1);
    outbox.unsent(unsent);
    assertThat(outbox.take(NOW).sent()).isEqualTo(4);
  }
}
