package dev.polite.internal.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.polite.RateController;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What a refusal and a success do to the pace a key finds for itself, on a clock the test moves. */
class DiscoveredPaceTest {
  private static final long MS = 1_000_000L;
  private static final long SECOND = 1_000 * MS;

  private long now = 1_000 * SECOND;
  private final Recorder controller = new Recorder();
  private final DiscoveredPace pace = new DiscoveredPace(controller, new AdmittedRate());

  @Test
  void aFirstRefusalCutsToWhatTheServerAdmittedAndProbes() {
    pace.firstSend(now);
    for (int i = 0; i < 20; i++) {
      pace.admittedOne(now += 50 * MS); // 20 admitted over a second
    }
    assertThat(pace.refused(now - MS, false, true, now)).isTrue();
    assertThat(controller.cuts).hasSize(1);
    assertThat(controller.cuts.get(0)).isEqualTo(20.0, within(0.01));
    assertThat(pace.found()).isTrue();
    assertThat(pace.oneAtATime()).isTrue();
  }

  @Test
  void aRefusalOfACallAlreadyOnTheWireAtTheCutCutsNothingMore() {
    pace.firstSend(now);
    pace.admittedOne(now + MS);
    now += SECOND;
    long sentBeforeTheCut = now - 10 * MS;
    assertThat(pace.refused(now - MS, false, true, now)).isTrue();
    now += 2 * SECOND;
    assertThat(pace.refused(sentBeforeTheCut, true, true, now)).isFalse();
    assertThat(controller.cuts).hasSize(1);
  }

  @Test
  void aRefusalWithinASecondOfSendingSinceTheCutProbesButCutsNothing() {
    pace.firstSend(now);
    pace.admittedOne(now + MS);
    now += SECOND;
    pace.refused(now - MS, false, true, now);
    now += 500 * MS;
    assertThat(pace.refused(now - MS, true, true, now)).as("half a second since the cut: no news").isFalse();
    assertThat(pace.oneAtATime()).isTrue();
    now += 600 * MS;
    assertThat(pace.refused(now - MS, true, true, now)).as("over a second since the cut: news").isTrue();
    assertThat(controller.cuts).hasSize(2);
  }

  @Test
  void aSuccessEndsTheProbingAndTellsTheControllerTheSendRate() {
    pace.firstSend(now);
    now += SECOND;
    pace.refused(now - MS, false, true, now);
    pace.succeeded(now, 7.5, now += 100 * MS);
    assertThat(pace.oneAtATime()).isFalse();
    assertThat(controller.successes).containsExactly(7.5);
  }

  @Test
  void aFleetsRefusalCutsAtMostOnceASecondAndOnlyAPaceFound() {
    pace.firstSend(now);
    pace.admittedOne(now + MS);
    now += SECOND;
    assertThat(pace.refusedForFleet(now)).as("nothing found to cut").isFalse();
    pace.refused(now - MS, false, true, now);
    pace.succeeded(now, 1, now += MS);
    now += 500 * MS;
    assertThat(pace.refusedForFleet(now)).as("a cut half a second old").isFalse();
    now += 600 * MS;
    assertThat(pace.refusedForFleet(now)).isTrue();
    assertThat(controller.cuts).hasSize(2);
    assertThat(pace.oneAtATime()).as("another instance's refusal sets no probe here").isFalse();
  }

  @Test
  void aRefusalBeforeAnythingWasAdmittedCutsNothingAndProbes() {
    pace.firstSend(now);
    now += SECOND;
    assertThat(pace.refused(now - MS, false, true, now)).as("no rate shown to cut to").isFalse();
    assertThat(pace.refusedFirst()).isTrue();
    assertThat(pace.oneAtATime()).isTrue();
    assertThat(pace.found()).isFalse();
    pace.succeeded(now, 1, now += MS);
    pace.admittedOne(now);
    now += 2 * SECOND;
    assertThat(pace.refused(now - MS, false, true, now)).as("once the server admitted one: a cut").isTrue();
    assertThat(controller.cuts).hasSize(1);
  }

  @Test
  void anAdvertisedPaceEndsTheProbing() {
    pace.firstSend(now);
    now += SECOND;
    pace.refused(now - MS, false, true, now);
    pace.advertised();
    assertThat(pace.oneAtATime()).isFalse();
  }

  /** A burst of 20 admitted in 40 ms from the key's first send, then a refusal. */
  private void burstOfTwentyThenRefused(boolean mayBank) {
    pace.firstSend(now);
    for (int i = 0; i < 20; i++) {
      pace.admittedOne(now += 2 * MS);
    }
    assertThat(pace.refused(now - MS, false, mayBank, now)).isTrue();
  }

  /** The first call after the cut goes {@code after} it, alone, and is admitted. */
  private void probeAdmitted(long after) {
    long sentAt = now += after;
    pace.admittedOne(now += 2 * MS);
    pace.succeeded(sentAt, 1, now);
  }

  @Test
  void anAdmittedProbeConfirmsWhatTheServerTookAtOnceBeyondTheNewPace() {
    burstOfTwentyThenRefused(true);
    // Cut to what was admitted over at least a second: 20/s; 20 in 40 ms is 20 - 20 * 0.04 beyond it.
    assertThat(pace.rate()).isEqualTo(20.0, within(0.01));
    assertThat(pace.bank()).as("nothing until a probe is admitted").isZero();
    probeAdmitted(SECOND);
    assertThat(pace.bank()).isEqualTo(19);
  }

  /** A burst of 20, 2 ms apart, of which 12 are answered, then a refusal, then the other 8. */
  private void twelveOfABurstThenARefusalThenEightOvertaken() {
    pace.firstSend(now);
    long burstAt = now;
    for (int i = 0; i < 12; i++) {
      pace.admittedOne(now += 2 * MS);
    }
    assertThat(pace.refused(now - MS, false, true, now)).isTrue(); // it reads 12/s
    for (int i = 0; i < 8; i++) {
      pace.admittedOne(now += MS);
      pace.succeeded(burstAt, 1, now);
    }
  }

  @Test
  void theBurstsSuccessesThatTheRefusalOvertookCountToo() {
    twelveOfABurstThenARefusalThenEightOvertaken();
    probeAdmitted(SECOND);
    // 12 - 12 * 0.024 beyond the new pace (12/s, from 12 admitted over a second) before the cut,
    // 8 after it: 19.7, no more than 12/s refilled in the 1.008 s to the probe, less the probe: 11.
    assertThat(pace.bank()).isEqualTo(11);
  }

  @Test
  void theBurstsSuccessesThatTheRefusalOvertookAreTheCutsEvidenceNotTheNextOnes() {
    twelveOfABurstThenARefusalThenEightOvertaken();
    assertThat(controller.admittedBeforeCut).as("the rate the cut should have read, one by one")
        .containsExactly(13.0, 14.0, 15.0, 16.0, 17.0, 18.0, 19.0, 20.0);
    now += SECOND;
    pace.refused(now - MS, true, true, now);
    assertThat(controller.cuts).as("the next cut reads none of them").containsExactly(12.0, 0.0);
  }

  @Test
  void theBankIsNoMoreThanTheNewPaceRefillsBetweenTheCutAndTheProbe() {
    burstOfTwentyThenRefused(true);
    probeAdmitted(500 * MS); // a bare refusal's first backoff
    assertThat(pace.bank()).as("20/s for half a second, less the probe").isEqualTo(9);
  }

  @Test
  void aRefusedProbeBelievesNoBankAndNoLaterProbeDoes() {
    burstOfTwentyThenRefused(true);
    now += 500 * MS; // a window the burst spent is still shut
    assertThat(pace.refused(now, true, true, now += 2 * MS)).as("within a second: no cut").isFalse();
    probeAdmitted(SECOND);
    assertThat(pace.bank()).isZero();
  }

  @Test
  void aKeyThatMayNotBankBelievesNone() {
    burstOfTwentyThenRefused(false);
    probeAdmitted(SECOND);
    assertThat(pace.bank()).isZero();
  }

  @Test
  void aBurstSpreadAtThePaceBanksNothing() {
    pace.firstSend(now);
    for (int i = 0; i < 20; i++) {
      pace.admittedOne(now += 50 * MS); // 20 in a second: all of it the pace's
    }
    pace.refused(now - MS, false, true, now);
    probeAdmitted(SECOND);
    assertThat(pace.bank()).isZero();
  }

  @Test
  void theBankIsSpentOnceAndLeftOutOfTheRateTheNextCutReads() {
    burstOfTwentyThenRefused(true);
    probeAdmitted(SECOND);
    for (int i = 0; i < 19; i++) {
      assertThat(pace.spendBank(1, now)).isTrue();
      pace.admittedOne(now += 2 * MS);
    }
    assertThat(pace.spendBank(1, now)).as("spent").isFalse();
    for (int i = 0; i < 40; i++) {
      pace.admittedOne(now += 50 * MS); // two seconds at 20/s
    }
    pace.refused(now - MS, true, true, now);
    // Since the cut: a second to the probe (the pause is the key's to leave out of the count),
    // 2 ms for its answer, 38 ms of bank, two seconds at the pace: the probe and 40 accepts of the
    // rate over 3.040 s, not 60.
    assertThat(controller.cuts.get(1)).as("the bank's 19 left out").isEqualTo(41 / 3.040, within(0.01));
    probeAdmitted(SECOND);
    assertThat(pace.bank()).as("only the first cut has the evidence").isZero();
  }

  @Test
  void aBankIsSpentOneCallAtATime() {
    burstOfTwentyThenRefused(true);
    probeAdmitted(500 * MS);
    for (int i = 0; i < 9; i++) {
      assertThat(pace.oneAtATime()).as("call " + i).isTrue();
      pace.spendBank(1, now);
    }
    assertThat(pace.oneAtATime()).as("spent: the key's window governs again").isFalse();
  }

  @Test
  void aBankNotSpentInTheTimeThePaceTakesToSendItEnds() {
    burstOfTwentyThenRefused(true);
    probeAdmitted(500 * MS);
    double bank = pace.bank();
    assertThat(bank).isPositive();
    long lasts = (long) (bank / pace.rate() * SECOND); // the rate has climbed a little since
    assertThat(pace.spendBank(1, now + lasts / 2)).as("within its time").isTrue();
    assertThat(pace.spendBank(1, now + 2 * lasts)).as("past it: a queue's end is no reopening").isFalse();
    assertThat(pace.bank()).isZero();
    assertThat(pace.oneAtATime()).isFalse();
  }

  @Test
  void aBankThatCannotPayForACallEnds() {
    burstOfTwentyThenRefused(true);
    probeAdmitted(500 * MS);
    assertThat(pace.spendBank(11, now)).isFalse();
    assertThat(pace.bank()).isZero();
    assertThat(pace.oneAtATime()).isFalse();
  }

  @Test
  void aRefusalOfNewsDropsWhatIsLeftOfTheBank() {
    burstOfTwentyThenRefused(true);
    probeAdmitted(SECOND);
    pace.spendBank(1, now);
    pace.refused(now - MS, true, true, now += 2 * MS); // within a second: cuts nothing, but is news
    assertThat(pace.bank()).isZero();
  }

  @Test
  void aRefusalOfACallOnTheWireAtTheCutLeavesTheBankToItsProbe() {
    burstOfTwentyThenRefused(true);
    long cutAt = now;
    assertThat(pace.refused(cutAt - 30 * MS, true, true, now += MS)).isFalse();
    pace.succeeded(cutAt - 20 * MS, 1, now += MS); // on the wire at the cut too: of the burst
    assertThat(pace.bank()).as("no probe yet").isZero();
    probeAdmitted(SECOND);
    // It showed 19 and the one the refusal overtook; the pace refilled 20 in the second, the probe one of them.
    assertThat(pace.bank()).isEqualTo(19);
  }

  @Test
  void anAdvertisedPaceDropsTheBank() {
    burstOfTwentyThenRefused(true);
    probeAdmitted(SECOND);
    pace.advertised();
    assertThat(pace.bank()).isZero();
  }

  /** Cuts to the admitted rate it is told; records what it heard. */
  private static final class Recorder implements RateController {
    final List<Double> cuts = new ArrayList<>();
    final List<Double> successes = new ArrayList<>();
    final List<Double> admittedBeforeCut = new ArrayList<>();
    private double rate = Double.POSITIVE_INFINITY;

    @Override
    public double rate() {
      return rate;
    }

    @Override
    public void onSuccess(long nowNanos, double measuredSendRate) {
      successes.add(measuredSendRate);
    }

    @Override
    public void onRejection(long nowNanos, double admittedRate) {
      cuts.add(admittedRate);
      rate = Math.max(1, admittedRate);
    }

    @Override
    public void onAdmittedBeforeCut(long nowNanos, double admittedRate) {
      admittedBeforeCut.add(admittedRate);
    }
  }
}
