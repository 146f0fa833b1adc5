package dev.polite.internal.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.polite.Aimd;
import dev.polite.Polite;
import dev.polite.RateController;
import dev.polite.RateLimitSignals;
import dev.polite.Sleeper;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The key model's rules, one at a time, on a clock the test moves. */
class KeyModelTest {
  private static final long MS = 1_000_000L;
  private static final long SECOND = 1_000 * MS;
  private static final RateLimitSignals REFUSED = RateLimitSignals.builder().rejection(true).build();
  private static final RateLimitSignals NOTHING = RateLimitSignals.none();

  private long now = 1_000 * SECOND;

  private static KeyModel key(RateController.Factory controller, long now) {
    return new KeyModel("k", Polite.builder().clock(() -> 0L, Sleeper.system())
        .rateController(controller).maxWait(Duration.ofSeconds(60)).build().config(), now);
  }

  private Permit send(KeyModel key) {
    KeyModel.Reservation r = key.reserve(1, now);
    assertThat(r.waitNanos()).isZero();
    return key.grant(now, r);
  }

  @Test
  void untilTheServerSaysAnythingTheWindowGrowsLikeSlowStart() {
    KeyModel key = key(Aimd.defaults(), now);
    Permit first = send(key);
    assertThat(key.gateClosed()).as("one call until the first answer").isTrue();
    key.onAnswer(200, NOTHING, first, now += MS);
    Permit a = send(key);
    Permit b = send(key);
    assertThat(key.gateClosed()).as("two after one answer").isTrue();
    key.onAnswer(200, NOTHING, a, now += MS);
    send(key);
    send(key);
    assertThat(key.gateClosed()).as("three after two answers: the doubling ends here").isTrue();
    key.onAnswer(200, NOTHING, b, now += MS);
    send(key);
    assertThat(key.gateClosed()).as("then a third of a call per answer").isTrue();
  }

  @Test
  void anAdvertisedRateDoublesTheWindowEveryRoundTripWithNoThreshold() {
    KeyModel key = key(Aimd.defaults(), now);
    key.onAnswer(200, ietf(1000, 999), send(key), now += MS);
    assertThat(key.pace()).isEqualTo(1000);
    int inFlight = 1;
    for (int roundTrip = 0; roundTrip < 5; roundTrip++) {
      Permit[] sent = new Permit[inFlight * 2];
      for (int i = 0; i < sent.length; i++) {
        sent[i] = send(key);
      }
      assertThat(key.gateClosed()).as("round trip %s: %s in flight", roundTrip, sent.length).isTrue();
      for (Permit p : sent) {
        key.onAnswer(200, ietf(1000, 999), p, now += MS);
      }
      inFlight = sent.length;
    }
  }

  @Test
  void aRefusalThePaceCannotExplainTeachesACapOnCallsInFlightAndPausesNothing() {
    KeyModel key = key(Aimd.defaults(), now);
    key.onAnswer(200, ietf(1000, 999), send(key), now += MS);
    Permit x = send(key);
    Permit y = send(key);
    key.onAnswer(200, ietf(1000, 998), x, now += MS);
    key.onAnswer(200, ietf(1000, 997), y, now += MS);
    Permit a = send(key);
    Permit b = send(key);
    Permit c = send(key);
    assertThat(key.gateClosed()).as("a window of four after three answers").isFalse();
    RateLimitSignals secondary = RateLimitSignals.builder().limit(1000).remaining(990)
        .reset(Duration.ofSeconds(1)).retryAfter(Duration.ofSeconds(1)).rejection(true).build();
    key.onAnswer(403, secondary, c, now += MS); // two others were on the wire when c went
    assertThat(key.pauseLeft(now)).as("no pause: the pace had budget left").isZero();
    assertThat(key.gateClosed()).as("a window of two, both taken").isTrue();
    key.onAnswer(200, ietf(1000, 989), a, now += MS);
    assertThat(key.gateClosed()).isFalse();
    send(key);
    assertThat(key.gateClosed()).as("held at the cap").isTrue();
    key.onAnswer(200, ietf(1000, 988), b, now += MS);
  }

  @Test
  void aRefusalThatSaysTheBudgetIsSpentStillPausesTheKey() {
    KeyModel key = key(Aimd.defaults(), now);
    key.onAnswer(200, ietf(1000, 999), send(key), now += MS);
    send(key);
    Permit refused = send(key);
    RateLimitSignals spent = RateLimitSignals.builder().limit(1000).remaining(0)
        .reset(Duration.ofSeconds(1)).retryAfter(Duration.ofSeconds(1)).rejection(true).build();
    key.onAnswer(429, spent, refused, now += MS);
    assertThat(key.pauseLeft(now)).isEqualTo(SECOND);
  }

  private static RateLimitSignals ietf(long quota, long remaining) {
    return RateLimitSignals.builder().limit(quota).remaining(remaining).window(Duration.ofSeconds(1))
        .reset(Duration.ofSeconds(1)).build();
  }

  private static RateLimitSignals hourly(long quota, long remaining) {
    return RateLimitSignals.builder().limit(quota).remaining(remaining).window(Duration.ofHours(1))
        .reset(Duration.ofMinutes(30)).build();
  }

  @Test
  void overtakenReportsAreRepaidWhileCallsAreStillOnTheWire() {
    KeyModel key = key(Aimd.defaults(), now);
    key.onAnswer(200, hourly(20, 17), send(key), now += MS); // the server has 17 left
    // Four calls go together; the server counts b, c, a, then d, but a's answer comes first.
    Permit a = send(key);
    Permit b = send(key);
    Permit c = send(key);
    Permit d = send(key);
    key.onAnswer(200, hourly(20, 14), a, now += MS); // read as if b, c and d were unseen: 11
    key.onAnswer(200, hourly(20, 16), b, now += MS);
    key.onAnswer(200, hourly(20, 15), c, now += MS);
    // The server had 14 left when it answered a, and has counted at most d since: 13 at least.
    assertThat(key.snapshot(now).tokens()).as("the lowest report less the call on the wire")
        .isCloseTo(13, within(0.01));
    for (int i = 0; i < 13; i++) {
      KeyModel.Reservation r = key.reserve(1, now);
      assertThat(r.waitNanos()).as("call %s of the 13 the server has room for", i).isZero();
      key.grant(now, r);
    }
    assertThat(key.reserve(1, now).waitNanos()).as("and not one more").isPositive();
  }

  @Test
  void theCountIsNeverRaisedPastTheLowestReportLessTheCallsOnTheWire() {
    KeyModel key = key(Aimd.defaults(), now);
    key.onAnswer(200, hourly(20, 17), send(key), now += MS);
    Permit a = send(key);
    Permit b = send(key);
    Permit c = send(key);
    // In order this time: a's report counted a alone, and b and c may not be counted yet.
    key.onAnswer(200, hourly(20, 16), a, now += MS);
    assertThat(key.snapshot(now).tokens()).isCloseTo(14, within(0.01));
    key.onAnswer(200, hourly(20, 15), b, now += MS);
    assertThat(key.snapshot(now).tokens()).as("c may still be uncounted").isCloseTo(14, within(0.01));
    key.onAnswer(200, hourly(20, 14), c, now += MS);
    assertThat(key.snapshot(now).tokens()).isCloseTo(14, within(0.01));
  }

  @Test
  void anOvertakenReportAgainstAnHourlyQuotaCostsNoCallOnceTheWireIsEmpty() {
    KeyModel key = key(Aimd.defaults(), now);
    key.onAnswer(200, hourly(20, 17), send(key), now += MS); // the server has 17 left
    // Two calls go together; the server counts the second first, but the first's answer, which
    // counted both, comes first: it is read as if b were still unseen.
    Permit a = send(key);
    Permit b = send(key);
    KeyModel.Reservation waiting = key.reserve(1, now); // a third waits for its token
    key.onAnswer(200, hourly(20, 15), a, now += MS);
    key.onAnswer(200, hourly(20, 16), b, now += MS);
    // 15 left and one reserved: 14 to believe. Read alone, a's report made it 13.
    assertThat(key.isStale(waiting)).as("requeued at the settled count").isTrue();
    assertThat(key.snapshot(now).tokens()).isCloseTo(15, within(0.01));
    for (int i = 0; i < 15; i++) {
      Permit p = send(key); // every call the server has room for goes without a wait
      key.onAnswer(200, hourly(20, 14 - i), p, now += MS);
    }
    assertThat(key.reserve(1, now).waitNanos()).as("then the quota is spent").isPositive();
  }

  @Test
  void theLowestReportNeverRaisesTheCountAboveWhatTheServerHasLeft() {
    for (boolean aCountedFirst : new boolean[] {true, false}) {
      KeyModel key = key(Aimd.defaults(), now);
      key.onAnswer(200, hourly(20, 10), send(key), now += MS);
      Permit a = send(key);
      Permit b = send(key);
      key.onAnswer(200, hourly(20, aCountedFirst ? 9 : 8), a, now += MS);
      key.onAnswer(200, hourly(20, aCountedFirst ? 8 : 9), b, now += MS);
      assertThat(key.snapshot(now).tokens()).as("a counted first: %s", aCountedFirst)
          .isCloseTo(8, within(0.01));
    }
  }

  @Test
  void aQuotaAndAResetWithoutAWindowPaceAtQuotaOverTheLongestResetTwoAnswersAgreeOnLessASecond() {
    KeyModel key = key(Aimd.defaults(), now);
    key.onAnswer(200, legacy(50, 49, 1), send(key), now += MS);
    assertThat(key.pace()).as("a one-second reset: a window of at least a second").isEqualTo(50);
    key.onAnswer(200, legacy(50, 48, 2), send(key), now += MS);
    assertThat(key.pace()).as("an epoch reset a second long reads 2: still one second").isEqualTo(50);
    key.onAnswer(200, legacy(50, 47, 10), send(key), now += MS);
    assertThat(key.pace()).as("one answer's ten-second reset is not yet believed").isEqualTo(50);
    key.onAnswer(200, legacy(50, 46, 10), send(key), now += MS);
    assertThat(key.pace()).as("a second of the same window is no second witness").isEqualTo(50);
    now += SECOND;
    key.onAnswer(200, legacy(50, 45, 9), send(key), now += MS);
    assertThat(key.pace()).as("one a window later agrees: the window is at least nine")
        .isCloseTo(50 / 9.0, within(1e-9));
    key.onAnswer(200, legacy(50, 44, 8), send(key), now += 500 * MS);
    assertThat(key.pace()).as("shorter resets naming the same instant do not shrink it").isCloseTo(50 / 9.0, within(1e-9));
  }

  @Test
  void oneWrongResetTwoHundredDaysOutNeverSlowsTheKey() {
    KeyModel key = key(Aimd.defaults(), now);
    key.onAnswer(200, legacy(10, 9, 1), send(key), now += MS);
    key.onAnswer(200, legacy(10, 8, 1), send(key), now += MS);
    key.onAnswer(200, legacy(10, 7, 200L * 86_400), send(key), now += MS);
    assertThat(key.pace()).isEqualTo(10);
    key.onAnswer(200, legacy(10, 6, 1), send(key), now += MS);
    key.onAnswer(200, legacy(10, 5, 200L * 86_400 - 1), send(key), now += MS);
    assertThat(key.pace()).as("each wrong one alone, contradicted by the next").isEqualTo(10);
  }

  private static RateLimitSignals legacy(long limit, long remaining, long resetSeconds) {
    return RateLimitSignals.builder().limit(limit).remaining(remaining)
        .reset(Duration.ofSeconds(resetSeconds)).build();
  }

  @Test
  void theFirstCutStartsFromWhatTheServerAdmittedNotFromWhatWasSent() {
    KeyModel key = key(Aimd.defaults(), now);
    key.onAnswer(200, NOTHING, send(key), now += MS);
    // 19 more admitted, then refusals: the server took 20 in its first second.
    for (int i = 0; i < 19; i++) {
      Permit p = send(key);
      key.onAnswer(200, NOTHING, p, now += MS);
    }
    Permit refused = send(key);
    key.onAnswer(429, REFUSED, refused, now += MS);
    assertThat(key.pace()).as("0.9 x 20 admitted in the first second").isCloseTo(18, within(1e-9));
    assertThat(key.pauseLeft(now)).as("a bare refusal backs the key off").isEqualTo(500 * MS);
  }

  @Test
  void theFirstCutCountsTheBurstsSuccessesWhoseAnswersTheRefusalOvertook() {
    KeyModel key = key(Aimd.defaults(), now);
    key.onAnswer(200, NOTHING, send(key), now += MS);
    List<Permit> late = new ArrayList<>();
    for (int i = 0; i < 19; i++) {
      Permit p = send(key);
      if (i >= 16) {
        late.add(p); // answered after the refusal
      } else {
        key.onAnswer(200, NOTHING, p, now += MS);
      }
    }
    key.onAnswer(429, REFUSED, send(key), now += MS);
    assertThat(key.pace()).as("a bare refusal with calls on the wire: a cap is tried first").isInfinite();
    assertThat(key.gateClosed()).as("its trial: one call once those on the wire are answered").isTrue();
    for (Permit p : late) {
      key.onAnswer(200, NOTHING, p, now += MS);
    }
    assertThat(key.gateClosed()).as("answers to calls sent before the guess do not show it").isFalse();
    key.onAnswer(429, REFUSED, send(key), now += MS); // the trial, refused alone: the pace
    assertThat(key.pace()).as("0.9 x the 20 the server took").isCloseTo(18, within(0.01));
  }

  @Test
  void aBareRefusalWithCallsOnTheWireIsACapOnTrialThatItsOneCallConfirms() {
    KeyModel key = key(Aimd.defaults(), now);
    key.onAnswer(200, NOTHING, send(key), now += MS);
    key.onAnswer(200, NOTHING, send(key), now += MS);
    Permit a = send(key);
    Permit b = send(key);
    Permit c = send(key);
    key.onAnswer(429, REFUSED, c, now += MS); // two still on the wire: a cap of two, on trial
    assertThat(key.pauseLeft(now)).as("no pause: a cap pauses nobody").isZero();
    key.onAnswer(200, NOTHING, a, now += MS);
    key.onAnswer(200, NOTHING, b, now += MS);
    Permit trial = send(key);
    assertThat(key.gateClosed()).as("the trial goes alone").isTrue();
    key.onAnswer(200, NOTHING, trial, now += MS);
    send(key);
    assertThat(key.gateClosed()).isFalse();
    send(key);
    assertThat(key.gateClosed()).as("the cap, believed").isTrue();
    assertThat(key.pace()).as("and no pace cut").isInfinite();
  }

  /** 20 admitted from the key's first send, 1 ms apart, then the 21st refused as {@code refusal}. */
  private void burstOfTwentyThenRefused(KeyModel key, RateLimitSignals refusal) {
    for (int i = 0; i < 20; i++) {
      key.onAnswer(200, NOTHING, send(key), now += MS);
    }
    key.onAnswer(429, refusal, send(key), now += MS);
  }

  /** A key that discovers its pace, {@link #burstOfTwentyThenRefused} bare, its pause waited out. */
  private KeyModel pausedOutAfterABareRefusal() {
    KeyModel key = key(Aimd.defaults(), now);
    burstOfTwentyThenRefused(key, REFUSED);
    now += key.pauseLeft(now);
    return key;
  }

  /** How many calls go at once (no wait for their tokens) once the key's pause is over. */
  private int goingAtOnceAfterThePause(KeyModel key) {
    now += key.pauseLeft(now);
    CallsAtOnce went = CallsAtOnce.from(key, now);
    now = went.now();
    return went.calls();
  }

  @Test
  void aSilentServerThatNamedItsDelayHasWhatItBankedSpentOnceThePauseIsOver() {
    KeyModel key = key(Aimd.defaults(), now);
    burstOfTwentyThenRefused(key, RateLimitSignals.builder().rejection(true)
        .retryAfter(Duration.ofSeconds(1)).build());
    assertThat(key.pauseLeft(now)).isEqualTo(SECOND);
    // Cut to 18/s; 20 taken in 21 ms is 19.6 beyond it, and 18/s refills 18 in the second named:
    // the probe (the bucket's one token) is one of them, and the bank the other 17.
    assertThat(goingAtOnceAfterThePause(key)).isEqualTo(18);
    assertThat(key.reserve(1, now).waitNanos()).as("then the pace").isPositive();
    assertThat(key.pace()).isBetween(18.0, 19.5);
  }

  @Test
  void aBankGoesOneCallAtATimeSoThatOneThatIsNotThereCostsOneRefusal() {
    KeyModel key = pausedOutAfterABareRefusal();
    key.onAnswer(200, NOTHING, send(key), now += MS); // the probe confirms a bank of 8
    Permit banked = send(key);
    assertThat(key.gateClosed()).as("one bank call on the wire").isTrue();
    key.onAnswer(429, REFUSED, banked, now += MS); // a sliding rate that only let the probe by
    now += key.pauseLeft(now);
    key.onAnswer(200, NOTHING, send(key), now += MS); // probing again: admitted
    KeyModel.Reservation next = key.reserve(1, now);
    assertThat(next.waitNanos()).as("the bank is gone: the pace").isPositive();
  }

  @Test
  void aBareRefusalsBankIsWhatThePaceRefillsInItsBackoff() {
    KeyModel key = key(Aimd.defaults(), now);
    burstOfTwentyThenRefused(key, REFUSED);
    assertThat(key.pauseLeft(now)).isEqualTo(500 * MS);
    // The probe (the bucket's one token) is admitted half a second after the cut: 18/s refilled 9,
    // the probe and a bank of 8.
    assertThat(goingAtOnceAfterThePause(key)).isEqualTo(9);
  }

  @Test
  void callsQueuedBehindTheProbeBeforeItsAnswerQueueAgainAndTheBankGoesFirst() {
    KeyModel key = pausedOutAfterABareRefusal();
    Permit probe = send(key);
    List<KeyModel.Reservation> queued = new ArrayList<>();
    for (int i = 0; i < 30; i++) { // a short pause lets every waiting call reserve at the pace
      queued.add(key.reserve(1, now));
    }
    assertThat(queued.get(0).waitNanos()).as("at the pace").isPositive();
    key.onAnswer(200, NOTHING, probe, now += MS); // the probe confirms a bank of 8
    assertThat(queued).as("void: they queue again").allMatch(key::isStale);
    assertThat(key.reserve(1, now).waitNanos()).as("behind the bank, not behind the old queue").isZero();
  }

  @Test
  void aBankNotSpentInTheTimeThePaceTakesToSendItIsGone() {
    KeyModel key = pausedOutAfterABareRefusal();
    key.onAnswer(200, NOTHING, send(key), now += MS); // a bank of 8: half a second at 18/s, less the probe
    now += SECOND; // nobody called meanwhile
    key.reserve(1, now); // the bucket's token
    assertThat(key.reserve(1, now).waitNanos()).as("the pace, not the bank").isPositive();
  }

  @Test
  void aWindowThatRefusesTheProbeBanksNothing() {
    KeyModel key = pausedOutAfterABareRefusal();
    key.onAnswer(429, REFUSED, send(key), now += MS); // the window the burst spent is still shut
    now += key.pauseLeft(now);
    now += 1_500 * MS; // a reopening 2.5 s after the burst (2 s, the round length within) is slower than the pace
    assertThat(goingAtOnceAfterThePause(key)).as("the probe alone").isEqualTo(1);
  }

  @Test
  void aLongPauseIsReVerifiedByOneProbeBeforeTheBankGoes() {
    KeyModel key = key(Aimd.defaults(), now);
    burstOfTwentyThenRefused(key, RateLimitSignals.builder().rejection(true)
        .retryAfter(Duration.ofHours(1)).build());
    now += key.pauseLeft(now); // the max wait: the probe's turn
    assertThat(key.pauseLeft(now)).isZero();
    KeyModel.Reservation probe = key.reserve(1, now);
    Permit probing = key.grant(now, probe);
    assertThat(key.verifyingPause()).isTrue();
    assertThat(key.gateClosed()).as("the probe goes alone, bank or none").isTrue();
    key.onAnswer(200, NOTHING, probing, now += MS);
    assertThat(key.pauseHeld(now)).isZero();
    assertThat(goingAtOnceAfterThePause(key)).as("the bank, believed no larger than it showed").isEqualTo(19);
  }

  @Test
  void aRefusalSoonAfterACutIsNoNewsAboutTheRate() {
    KeyModel key = key(Aimd.defaults(), now);
    key.onAnswer(200, NOTHING, send(key), now += MS);
    key.onAnswer(429, REFUSED, send(key), now += MS);
    long refusedAt = now;
    double cut = key.pace();
    now += key.pauseLeft(now);
    KeyModel.Reservation probe = key.reserve(1, now);
    now += probe.waitNanos(); // at the new pace
    key.onAnswer(429, REFUSED, key.grant(now, probe), now += MS); // meets a limiter still counting
    assertThat(key.pace()).as("not cut again").isEqualTo(cut);
    assertThat(key.pauseLeft(now)).as("but the run of refusals goes on: half of it, at least the base")
        .isEqualTo(Math.max(500 * MS, (now - refusedAt) / 2));
  }

  @Test
  void aRunOfBareRefusalsProbesAtTimesGrowingByHalfFromItsFirstRefusal() {
    // A limiter that reopens a whole window after the refusal that shut it (a 1 s window shut at
    // once reopens 1 s later) is found open by the probe at twice the base; one that reopens a
    // little after that (HAProxy's sliding rate, which still counts most of the last window) by
    // the probe at three times the base, not four.
    KeyModel key = key(Aimd.defaults(), now);
    for (int i = 0; i < 20; i++) {
      key.onAnswer(200, NOTHING, send(key), now += MS); // a pace of 18/s after the cut
    }
    key.onAnswer(429, REFUSED, send(key), now += MS);
    long first = now;
    assertThat(key.pauseLeft(now)).isEqualTo(500 * MS);
    List<Long> probes = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      now += key.pauseLeft(now);
      probes.add((now - first) / MS);
      KeyModel.Reservation probe = key.reserve(1, now);
      now += probe.waitNanos();
      key.onAnswer(429, REFUSED, key.grant(now, probe), now);
      assertThat(key.pauseLeft(now)).as("half the run so far, at least the base and at most the cap")
          .isEqualTo(Math.min(30 * SECOND, Math.max(500 * MS, (now - first) / 2)));
    }
    assertThat(probes)
        .as("ms from the first refusal to each probe, each within a pace's wait of 1.5 times the last")
        .satisfies(p -> {
          for (int i = 2; i < p.size(); i++) {
            long grown = Math.min(p.get(i - 1) * 3 / 2, p.get(i - 1) + 30_000);
            assertThat(p.get(i)).isBetween(grown, grown + 2 * 56);
          }
        });
    assertThat(probes.get(1)).as("a 1 s window shut at once is open for the second probe").isLessThan(1_100);
    assertThat(probes.get(2)).as("a sliding rate still counting it, for the third").isLessThan(1_700);
    assertThat(key.pauseLeft(now)).as("at most the cap").isLessThanOrEqualTo(30 * SECOND);
    // A call sent after the last refusal succeeds: the run is over, the next one starts at the base.
    now += key.pauseLeft(now);
    KeyModel.Reservation next = key.reserve(1, now);
    now += next.waitNanos();
    key.onAnswer(200, NOTHING, key.grant(now, next), now += MS);
    KeyModel.Reservation again = key.reserve(1, now);
    now += again.waitNanos();
    key.onAnswer(429, REFUSED, key.grant(now, again), now += MS);
    assertThat(key.pauseLeft(now)).isEqualTo(500 * MS);
  }

  @Test
  void withoutDiscoveryABareRefusalPausesNothing() {
    KeyModel key = key(RateController.none(), now);
    key.onAnswer(200, NOTHING, send(key), now += MS);
    key.onAnswer(429, REFUSED, send(key), now += MS);
    assertThat(key.pauseLeft(now)).isZero();
    assertThat(key.pace()).isInfinite();
  }

  @Test
  void aCutVoidsTheReservationsMadeAtTheOldPace() {
    KeyModel key = key(Aimd.defaults(), now);
    key.onAnswer(200, NOTHING, send(key), now += MS);
    Permit refused = send(key);
    KeyModel.Reservation early = key.reserve(1, now);
    key.onAnswer(429, REFUSED, refused, now += MS);
    assertThat(key.isStale(early)).isTrue();
    assertThat(key.inFlight()).as("its place was freed by the cut").isZero();
    key.cancel(early, 1, now); // a holder giving up afterwards changes nothing
    assertThat(key.inFlight()).isZero();
  }

  @Test
  void aPauseVoidsTheReservationsMadeBeforeIt() {
    // The leaky queue at 64 callers: reservations held through a pause all went at once when it
    // ended, into a queue still draining. Now they are void and queue again after it.
    KeyModel key = key(Aimd.defaults(), now);
    RateLimitSignals fresh = RateLimitSignals.builder().limit(20).remaining(19)
        .window(Duration.ofSeconds(1)).reset(Duration.ofSeconds(1)).build();
    key.onAnswer(200, fresh, send(key), now += MS);
    Permit last = send(key);
    KeyModel.Reservation waiting = key.reserve(1, now);
    RateLimitSignals spent = RateLimitSignals.builder().limit(20).remaining(0)
        .window(Duration.ofSeconds(1)).reset(Duration.ofSeconds(1)).build();
    key.onAnswer(200, spent, last, now += MS);
    assertThat(key.pauseLeft(now)).isEqualTo(SECOND);
    assertThat(key.isStale(waiting)).isTrue();
    assertThat(key.inFlight()).as("its place was freed").isZero();
    now += SECOND;
    assertThat(key.pauseLeft(now)).isZero();
    assertThat(key.reserve(1, now).waitNanos()).as("what the pause restored").isZero();
  }

  @Test
  void aPaceNoCallCanWaitForLetsOneProbeGoPerMaxWait() {
    KeyModel key = key(Aimd.defaults(), now);
    RateLimitSignals onePerYear = RateLimitSignals.builder().limit(1).remaining(0)
        .window(Duration.ofDays(365)).build();
    key.onAnswer(200, onePerYear, send(key), now += MS);
    assertThat(key.reserve(1, now).waitNanos()).as("refused: no call can wait a year").isGreaterThan(60 * SECOND);
    now += 60 * SECOND;
    assertThat(key.reserve(1, now).waitNanos()).as("the max wait on, one goes to re-verify").isZero();
  }
}
