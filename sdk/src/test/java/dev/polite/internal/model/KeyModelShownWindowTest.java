package dev.polite.internal.model;

import static org.assertj.core.api.Assertions.assertThat;

import dev.polite.Aimd;
import dev.polite.Polite;
import dev.polite.RateController;
import dev.polite.RateLimitSignals;
import dev.polite.Sleeper;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A silent window's shape through the key model: a burst of 20 taken whole, the probe of the
 * first backoff refused, the next admitted a second after the burst began (a sliding log of 20 a
 * second, or a fixed window the burst opened), and what the key then lets go; and the keys that
 * never believe one (a weighted key, a fleet's, one that discovers nothing, one told a pace).
 */
class KeyModelShownWindowTest {
  private static final long MS = 1_000_000L;
  private static final long SECOND = 1_000 * MS;
  private static final RateLimitSignals REFUSED = RateLimitSignals.builder().rejection(true).build();
  private static final RateLimitSignals NOTHING = RateLimitSignals.none();

  private long now = 1_000 * SECOND;

  private KeyModel key(RateController.Factory controller) {
    return new KeyModel("k", Polite.builder().clock(() -> 0L, Sleeper.system())
        .rateController(controller).maxWait(Duration.ofSeconds(60)).build().config(), now);
  }

  /** A call of {@code cost} sent as soon as the key lets it (at once, or after its pace's wait). */
  private Permit send(KeyModel key, double cost) {
    KeyModel.Reservation r = key.reserve(cost, now);
    now += r.waitNanos();
    return key.grant(now, r);
  }

  /**
   * 20 calls admitted 1 ms apart, the first of {@code firstCost} and the others of 1, the 21st
   * refused; the probe after the backoff refused (the window is still shut); the next probe,
   * after the second backoff, admitted.
   *
   * @return when the burst began
   */
  private long burstShutReopened(KeyModel key, double firstCost) {
    return burstShutReopened(key, firstCost, 20);
  }

  /** {@link #burstShutReopened(KeyModel, double)} with a burst of {@code burst} calls. */
  private long burstShutReopened(KeyModel key, double firstCost, int burst) {
    long began = now;
    for (int i = 0; i < burst; i++) {
      key.onAnswer(200, NOTHING, send(key, i == 0 ? firstCost : 1), now += MS);
    }
    double cost = 1;
    key.onAnswer(429, REFUSED, send(key, cost), now += MS);
    now += key.pauseLeft(now);
    key.onAnswer(429, REFUSED, send(key, cost), now += MS);
    now += key.pauseLeft(now);
    Permit reopening = send(key, cost);
    assertThat(reopening.sentAt() - began).as("reopened about a second after the burst")
        .isBetween(900 * MS, 1_100 * MS);
    key.onAnswer(200, NOTHING, reopening, now += MS);
    return began;
  }

  /** How many calls go at once from now, each answered (admitted) before the next. */
  private int goingAtOnce(KeyModel key) {
    CallsAtOnce went = CallsAtOnce.from(key, now);
    now = went.now();
    return went.calls();
  }

  @Test
  void theReopenedWindowsTwentyGoAtOnceAndTheNextTwentyAWindowLater() {
    KeyModel key = key(Aimd.defaults());
    long began = burstShutReopened(key, 1);
    long reopenedSentAt = now - MS;
    assertThat(goingAtOnce(key)).as("the reopening's window: 19 beside it").isEqualTo(19);
    // Paced evenly (about 19/s after the cut), the next call would wait some 50 ms, not this.
    long width = (long) (1.1 * DiscoveredWindow.measured(0, reopenedSentAt - began));
    assertThat(width).as("the second the refusals and the reopening allow, with the slack").isEqualTo(1_100 * MS);
    assertThat(key.waitEstimate(1, now)).as("the next window: 1.1 times the one shown, from the reopening")
        .isEqualTo(reopenedSentAt + width - now);
  }

  @Test
  void eachWindowOpensOneCallAtATimeUntilOneIsTakenWhole() {
    KeyModel key = key(Aimd.defaults());
    burstShutReopened(key, 1);
    Permit a = send(key, 1);
    send(key, 1);
    assertThat(key.gateClosed()).as("two in flight after the reopening").isTrue();
    key.onAnswer(200, NOTHING, a, now += MS);
    assertThat(key.gateClosed()).as("a third once one is admitted").isFalse();
  }

  @Test
  void aRefusalOfAWindowOnTrialDropsItAndTheKeyGoesOnAtThePaceItHad() {
    KeyModel key = key(Aimd.defaults());
    burstShutReopened(key, 1);
    double pace = key.pace();
    key.onAnswer(429, REFUSED, send(key, 1), now += MS); // a sliding rate: the window's second call
    assertThat(key.pauseLeft(now)).as("no backoff: the call went on the window's word").isZero();
    assertThat(key.pace()).as("nor a cut").isEqualTo(pace);
    key.reserve(1, now);
    assertThat(key.gateClosed()).as("nor one call at a time (a probe's)").isFalse();
  }

  @Test
  void aWindowOnTrialThatTakesFewerThanItsBurstIsRecountedAtOneRefusal() {
    KeyModel key = key(Aimd.defaults());
    // The burst met the server's boundary: 32 taken, where each of its windows takes 20.
    burstShutReopened(key, 1, 32);
    double pace = key.pace();
    for (int i = 1; i < 20; i++) { // the reopening's window takes 19 more
      assertThat(key.gateClosed()).as("call %s", i + 1).isFalse();
      key.onAnswer(200, NOTHING, send(key, 1), now += MS);
    }
    Permit refused = send(key, 1);
    assertThat(key.gateClosed()).as("past half the count, one call at a time").isTrue();
    key.onAnswer(429, REFUSED, refused, now += MS);
    assertThat(key.pauseLeft(now)).as("no backoff: the window said its count").isZero();
    assertThat(key.pace()).as("nor a cut").isEqualTo(pace);
    assertThat(key.toString()).as("believed at what it took").contains(" 20 per ");
    assertThat(key.waitEstimate(1, now)).as("the next call waits for the next window").isPositive();
  }

  @Test
  void aRefusalOfAWindowTakenWholeIsARefusalOfThePaceAsAnyOther() {
    KeyModel key = key(Aimd.defaults());
    burstShutReopened(key, 1);
    goingAtOnce(key); // the reopening's window
    now += key.waitEstimate(1, now);
    assertThat(goingAtOnce(key)).as("the next window, taken whole").isEqualTo(20);
    now += key.waitEstimate(1, now);
    key.onAnswer(429, REFUSED, send(key, 1), now += MS); // the server changed
    assertThat(key.pauseLeft(now)).as("backed off as for any bare refusal").isPositive();
  }

  @Test
  void aKeyWithWeightedCallsBelievesNoWindowCountedInCalls() {
    KeyModel key = key(Aimd.defaults());
    burstShutReopened(key, 2); // one call of the burst cost 2
    assertThat(goingAtOnce(key)).as("paced: its one token").isLessThanOrEqualTo(1);
  }

  @Test
  void aKeyThatDiscoversNothingBelievesNoWindowEither() {
    KeyModel key = key(RateController.none());
    for (int i = 0; i < 20; i++) {
      key.onAnswer(200, NOTHING, send(key, 1), now += MS);
    }
    key.onAnswer(429, REFUSED, send(key, 1), now += MS);
    now += 500 * MS;
    key.onAnswer(429, REFUSED, send(key, 1), now += MS); // sent after the refusal came back: shut
    now += 500 * MS;
    key.onAnswer(200, NOTHING, send(key, 1), now += MS);
    assertThat(key.toString()).doesNotContain(" per ");
  }

  @Test
  void anAdvertisedPaceEndsTheWindow() {
    KeyModel key = key(Aimd.defaults());
    burstShutReopened(key, 1);
    RateLimitSignals ietf = RateLimitSignals.builder().limit(5).remaining(4)
        .reset(Duration.ofSeconds(1)).build();
    key.onAnswer(200, ietf, send(key, 1), now += MS);
    assertThat(key.pace()).as("the advertised pace").isEqualTo(5.0);
    assertThat(goingAtOnce(key)).as("its remaining count, not the window's").isLessThanOrEqualTo(4);
  }
}
