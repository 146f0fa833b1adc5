package dev.polite.internal.model;

import static org.assertj.core.api.Assertions.assertThat;

import dev.polite.Aimd;
import dev.polite.Polite;
import dev.polite.RateLimitSignals;
import dev.polite.Sleeper;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A refusal naming a delay no call may wait, on a key that shows no limit ({@link DoubtedDelay}):
 * set aside until the refusals after it confirm it, and its neighbours believed as before (a
 * delay a call may wait, a key that shows a limit, a key already paused).
 */
class DoubtedDelayTest {
  private static final long MS = 1_000_000L;
  private static final long SECOND = 1_000 * MS;
  private static final long MAX_WAIT = 60 * SECOND;
  private static final RateLimitSignals A_DAY = refusal(Duration.ofDays(1));
  private static final RateLimitSignals NOTHING = RateLimitSignals.none();

  private long now = 1_000 * SECOND;
  private final KeyModel key = new KeyModel("k", Polite.builder().clock(() -> 0L, Sleeper.system())
      .rateController(Aimd.defaults()).maxWait(Duration.ofNanos(MAX_WAIT)).build().config(), now);

  private static RateLimitSignals refusal(Duration retryAfter) {
    return RateLimitSignals.builder().rejection(true).retryAfter(retryAfter).build();
  }

  private Permit send() {
    assertThat(key.pauseLeft(now)).as("not paused").isZero();
    KeyModel.Reservation r = key.reserve(1, now);
    assertThat(r.waitNanos()).as("not paced").isZero();
    return key.grant(now, r);
  }

  private void admitSome(int calls) {
    for (int i = 0; i < calls; i++) {
      key.onAnswer(200, NOTHING, send(), now += MS);
    }
  }

  @Test
  void aStrayRefusalNamingADayCostsOnlyItsOwnCall() {
    admitSome(5);
    for (int round = 0; round < 10; round++) {
      key.onAnswer(429, A_DAY, send(), now += MS);
      assertThat(key.pauseLeft(now)).as("round %d: the key goes on", round).isZero();
      assertThat(key.pauseHeld(now)).isZero();
      admitSome(9); // the call after it admitted: the doubt ends
    }
    assertThat(key.reserve(1, now).waitNanos()).as("and it is not paced either").isZero();
  }

  @Test
  void refusalsAfterItConfirmTheDelayAndTheKeyPausesForIt() {
    admitSome(5);
    key.onAnswer(429, A_DAY, send(), now += MS);
    for (int i = 1; i < DoubtedDelay.CONFIRMING; i++) {
      key.onAnswer(429, A_DAY, send(), now += MS);
      assertThat(key.pauseHeld(now)).as("refusal %d after it: not yet", i).isZero();
    }
    key.onAnswer(429, A_DAY, send(), now += MS);
    assertThat(key.pauseHeld(now)).as("confirmed: the day").isEqualTo(Duration.ofDays(1).toNanos());
    assertThat(key.pauseLeft(now)).as("read as ending at the max wait, then probed").isEqualTo(MAX_WAIT);
  }

  @Test
  void refusalsOfCallsAlreadyOnTheWireWhenTheDoubtBeganConfirmNothing() {
    admitSome(5);
    List<Permit> onTheWire = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      onTheWire.add(send());
    }
    now += MS;
    for (Permit permit : onTheWire) {
      key.onAnswer(429, A_DAY, permit, now += MS);
    }
    assertThat(key.pauseHeld(now)).as("one round, sent on the same evidence").isZero();
    admitSome(1);
    key.onAnswer(429, A_DAY, send(), now += MS);
    assertThat(key.pauseHeld(now)).as("a new doubt, not a confirmation").isZero();
  }

  @Test
  void aDayArrivingWhileTheLimitersSecondHoldsTheKeyIsDoubtedAsAnyOther() {
    admitSome(5);
    Permit refusedByTheLimiter = send();
    Permit refusedStray = send();
    key.onAnswer(429, refusal(Duration.ofSeconds(1)), refusedByTheLimiter, now += MS);
    key.onAnswer(429, A_DAY, refusedStray, now += MS);
    assertThat(key.pauseHeld(now)).as("the limiter's second, not the day").isLessThanOrEqualTo(SECOND);
  }

  @Test
  void aKeyHeldForADayItBelievedTakesTheNextDayAsItsRenewal() {
    admitSome(5);
    for (int i = 0; i <= DoubtedDelay.CONFIRMING; i++) {
      key.onAnswer(429, A_DAY, send(), now += MS);
    }
    now += key.pauseLeft(now); // the max wait: one call re-verifies
    key.onAnswer(429, A_DAY, send(), now += MS);
    assertThat(key.pauseHeld(now)).as("renewed, not doubted").isEqualTo(Duration.ofDays(1).toNanos());
  }

  @Test
  void anHourIsBelievedAtOnceThoughNoCallMayWaitIt() {
    admitSome(5);
    key.onAnswer(429, refusal(Duration.ofHours(1)), send(), now += MS);
    assertThat(key.pauseHeld(now)).as("a per-hour quota's delay").isEqualTo(Duration.ofHours(1).toNanos());
  }

  @Test
  void aDelayACallMayWaitIsBelievedAtOnce() {
    admitSome(5);
    key.onAnswer(429, refusal(Duration.ofSeconds(30)), send(), now += MS);
    assertThat(key.pauseLeft(now)).isEqualTo(30 * SECOND);
  }

  @Test
  void aKeyThatShowsALimitIsBelievedAtOnce() {
    RateLimitSignals shown = RateLimitSignals.builder().limit(100).remaining(50)
        .reset(Duration.ofSeconds(60)).build();
    for (int i = 0; i < 5; i++) {
      key.onAnswer(200, shown, send(), now += MS);
    }
    RateLimitSignals spent = RateLimitSignals.builder().rejection(true).limit(100).remaining(0)
        .reset(Duration.ofDays(1)).retryAfter(Duration.ofDays(1)).build();
    now += key.reserve(1, now).waitNanos();
    key.onAnswer(429, spent, key.grant(now, key.reserve(1, now)), now += MS);
    assertThat(key.pauseHeld(now)).isEqualTo(Duration.ofDays(1).toNanos());
  }

  @Test
  void aBodysDayOnARefusalSetAsideIsSetAsideToo() {
    admitSome(5);
    long learnedAt = now += MS;
    key.onAnswer(429, A_DAY, send(), learnedAt);
    key.onBodyHint(429, A_DAY, learnedAt, now += MS);
    assertThat(key.pauseHeld(now)).isZero();
  }
}
