package dev.polite.internal.model;

import static org.assertj.core.api.Assertions.assertThat;

import dev.polite.Aimd;
import dev.polite.Polite;
import dev.polite.RateController;
import dev.polite.RateLimitSignals;
import dev.polite.Sleeper;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A key that refuses every call ({@link RefusalRun}) becomes known as such from its refusals, and
 * its neighbours do not: a limiter that is merely limiting, whose first call after the delay it
 * named goes through, however many calls it refused at once.
 */
class RefusingKeyTest {
  private static final long MS = 1_000_000L;
  private static final long SECOND = 1_000 * MS;
  private static final long MAX_WAIT = 60 * SECOND;
  private static final RateLimitSignals NOW_AGAIN = refusal(Duration.ZERO);
  private static final RateLimitSignals BARE = RateLimitSignals.builder().rejection(true).build();
  private static final RateLimitSignals NOTHING = RateLimitSignals.none();

  private long now = 1_000 * SECOND;

  private static KeyModel key(RateController.Factory controller, long now) {
    return new KeyModel("k", Polite.builder().clock(() -> 0L, Sleeper.system())
        .rateController(controller).maxWait(Duration.ofNanos(MAX_WAIT)).build().config(), now);
  }

  private static RateLimitSignals refusal(Duration retryAfter) {
    return RateLimitSignals.builder().rejection(true).retryAfter(retryAfter).build();
  }

  /** One call as the shell lets it: after the pause (which marks the probe), at its pace. */
  private Permit sendWhenLet(KeyModel key) {
    now += key.pauseLeft(now);
    assertThat(key.pauseLeft(now)).isZero();
    KeyModel.Reservation r = key.reserve(1, now);
    now += r.waitNanos();
    return key.grant(now, r);
  }

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void aLimiterThatStopsAdmittingIsKnownInAbout2SecondsAndProbedAsABackoffWould(boolean namesZero) {
    RateLimitSignals refusal = namesZero ? NOW_AGAIN : BARE;
    KeyModel key = key(Aimd.defaults(), now);
    for (int i = 0; i < 20; i++) {
      key.onAnswer(200, NOTHING, sendWhenLet(key), now += MS); // a pace of 18/s after the cut
    }
    long first = now;
    key.onAnswer(429, refusal, sendWhenLet(key), now += MS);
    assertThat(key.pauseLeft(now)).as("Retry-After: 0 names no time: a bare refusal's backoff").isEqualTo(500 * MS);
    for (int i = 0; i < 3; i++) { // probes at 0.5, 1 and 1.5 s of the run
      key.onAnswer(429, refusal, sendWhenLet(key), now += MS);
      assertThat(key.refusesEverything()).isFalse();
    }
    key.onAnswer(429, refusal, sendWhenLet(key), now += MS);
    long run = now - first - MS; // from the first refusal's answer
    assertThat(key.refusesEverything()).as("the first round past 2 s").isTrue();
    assertThat(run).isBetween(2 * SECOND, 2_500 * MS);
    assertThat(key.pauseLeft(now)).as("the probe, in half the run").isEqualTo(run / 2);
    assertThat(key.pauseHeld(now)).as("past any call's max wait: calls fail at once").isGreaterThan(MAX_WAIT);
    assertThat(key.waitEstimate(1, now)).as("a retry cannot fit either").isGreaterThan(MAX_WAIT);

    key.onAnswer(429, refusal, sendWhenLet(key), now += MS); // the probe, refused
    assertThat(key.refusesEverything()).isTrue();
    assertThat(key.pauseLeft(now)).as("the next probe in half the run so far").isEqualTo((now - first - MS) / 2);

    key.onAnswer(200, NOTHING, sendWhenLet(key), now += MS); // the probe, admitted
    assertThat(key.refusesEverything()).isFalse();
    assertThat(key.pauseHeld(now)).isZero();
    key.onAnswer(429, refusal, sendWhenLet(key), now += MS);
    assertThat(key.refusesEverything()).as("a new run starts from nothing").isFalse();
    assertThat(key.pauseLeft(now)).isEqualTo(500 * MS);
  }

  @Test
  void aKeyRefusedFromItsFirstCallIsKnownAsSoonAndIsNeverPaced() {
    // Nothing admitted shows no rate to cut to: the backoff alone spaces the probes.
    KeyModel key = key(Aimd.defaults(), now);
    long first = now;
    for (int i = 0; i < 4; i++) {
      key.onAnswer(429, NOW_AGAIN, sendWhenLet(key), now += MS);
      assertThat(key.refusesEverything()).isFalse();
    }
    key.onAnswer(429, NOW_AGAIN, sendWhenLet(key), now += MS);
    assertThat(key.refusesEverything()).as("the fourth round, past 2 s").isTrue();
    assertThat(now - first).isBetween(2 * SECOND, 2_300 * MS);
    assertThat(key.pace()).isInfinite();
  }

  @Test
  void aDelayNamedAndBrokenRoundAfterRoundIsKnownToo() {
    KeyModel key = key(RateController.none(), now);
    RateLimitSignals inASecond = refusal(Duration.ofSeconds(1));
    long first = now;
    for (int i = 0; i < 3; i++) {
      key.onAnswer(429, inASecond, sendWhenLet(key), now += MS);
      assertThat(key.refusesEverything()).isFalse();
    }
    key.onAnswer(429, inASecond, sendWhenLet(key), now += MS);
    assertThat(key.refusesEverything()).as("the third round, 3 s into the run").isTrue();
    assertThat(now - first).isBetween(3 * SECOND, 3_100 * MS);
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 4, 16, 64})
  void aLimiterMerelyLimitingIsNeverTakenForOne(int callers) {
    // A burst of callers refused at once is one round, however many, and the first call after
    // the delay named goes through: round after round, the run never reaches four.
    KeyModel key = key(Aimd.defaults(), now);
    RateLimitSignals inASecond = refusal(Duration.ofSeconds(1));
    for (int round = 0; round < 10; round++) {
      List<Permit> burst = new ArrayList<>();
      now += key.pauseLeft(now);
      for (int i = 0; i < callers && !key.gateClosed(); i++) {
        KeyModel.Reservation r = key.reserve(1, now);
        burst.add(key.grant(now, r));
      }
      for (Permit p : burst) {
        key.onAnswer(429, inASecond, p, now += MS);
      }
      assertThat(key.refusesEverything()).isFalse();
      key.onAnswer(200, NOTHING, sendWhenLet(key), now += MS);
    }
    assertThat(key.refusesEverything()).isFalse();
  }

  @Test
  void aSlidingRateThatLetsTheThirdProbeThroughIsNotTakenForOne() {
    KeyModel key = key(Aimd.defaults(), now);
    for (int i = 0; i < 20; i++) {
      key.onAnswer(200, NOTHING, sendWhenLet(key), now += MS);
    }
    for (int round = 0; round < 5; round++) {
      key.onAnswer(429, BARE, sendWhenLet(key), now += MS); // the refusal that shuts it
      key.onAnswer(429, BARE, sendWhenLet(key), now += MS); // probes at 0.5 and 1 s: still shut
      key.onAnswer(429, BARE, sendWhenLet(key), now += MS);
      assertThat(key.refusesEverything()).isFalse();
      key.onAnswer(200, NOTHING, sendWhenLet(key), now += MS); // at 1.5 s: open
    }
    assertThat(key.refusesEverything()).isFalse();
  }

  @Test
  void callsSentEarlyInObservationProveNothing() {
    KeyModel key = new KeyModel("k", Polite.builder().clock(() -> 0L, Sleeper.system())
        .rateController(Aimd.defaults()).observeOnly(true).build().config(), now);
    for (int i = 0; i < 10; i++) {
      key.onAnswer(429, NOW_AGAIN, key.sendAtOnce(1, true, true, now), now += MS);
    }
    assertThat(key.refusesEverything()).isFalse();
  }

  @Test
  void withoutDiscoveryTheRetriesOfARefusedKeyStillShowIt() {
    // A key told to discover nothing backs off no bare refusal; its retries (each call's own
    // jittered backoff) go round after round, and still show a key admitting nothing.
    KeyModel key = key(RateController.none(), now);
    for (int i = 0; i < 6; i++) {
      now += 300 * MS;
      key.onAnswer(429, BARE, sendWhenLet(key), now += MS);
    }
    assertThat(key.refusesEverything()).as("1.5 s into the run").isFalse();
    for (int i = 0; i < 2; i++) {
      now += 300 * MS;
      key.onAnswer(429, BARE, sendWhenLet(key), now += MS);
    }
    assertThat(key.refusesEverything()).as("2.1 s into it").isTrue();
  }
}
