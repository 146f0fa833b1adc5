package dev.polite.examples.zoo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The floors: the least time N calls take against each limiter without a rejection. */
class FloorTest {
  private static final Duration SECOND = Duration.ofSeconds(1);

  @Test
  void aTokenBucketSpendsItsBurstThenPaysTheRate() {
    assertThat(Floor.tokenBucket(100, 20, 20)).isEqualTo(4.0);
    assertThat(Floor.tokenBucket(30, 5, 5)).as("compare's floor").isEqualTo(5.0);
    assertThat(Floor.tokenBucket(60, 20, 20)).isEqualTo(2.0);
    assertThat(Floor.tokenBucket(20, 20, 20)).as("the burst covers them all").isZero();
    assertThat(Floor.tokenBucket(3, 20, 20)).isZero();
  }

  @Test
  void aWindowAlgorithmNeedsTheWindowsAfterTheFirst() {
    assertThat(Floor.windows(100, 20, SECOND)).isEqualTo(4.0);
    assertThat(Floor.windows(101, 20, SECOND)).as("one more call opens a sixth window").isEqualTo(5.0);
    assertThat(Floor.windows(60, 20, SECOND)).isEqualTo(2.0);
    assertThat(Floor.windows(20, 20, SECOND)).isZero();
    assertThat(Floor.windows(21, 20, Duration.ofMillis(500))).isEqualTo(0.5);
  }

  @Test
  void aLeakyQueueServesOnePerIntervalWhateverItsSize() {
    assertThat(Floor.leakyQueue(100, 20)).isCloseTo(4.95, within(1e-9));
    assertThat(Floor.leakyQueue(1, 20)).isZero();
    assertThat(Floor.leakyQueue(2, 20)).isCloseTo(0.05, within(1e-9));
  }

  @Test
  void haproxysSlidingRateGivesTheBurstNoHeadStart() {
    // 20 at once, none until the period ends, then one per 50 ms: the 100th at 1 + 79 × 0.05 s.
    assertThat(Floor.slidingRate(100, 20, SECOND)).isCloseTo(4.95, within(1e-9));
    assertThat(Floor.slidingRate(21, 20, SECOND)).as("the first after the burst waits for the period's end")
        .isCloseTo(1.0, within(1e-9));
    assertThat(Floor.slidingRate(60, 20, SECOND)).isCloseTo(2.95, within(1e-9));
    assertThat(Floor.slidingRate(20, 20, SECOND)).isZero();
    assertThat(Floor.slidingRate(40, 5, SECOND)).as("40 calls at 5 per second: about 7 s")
        .isCloseTo(7.8, within(1e-9));
  }

  @Test
  void aCapOnCallsInFlightServesOneWaveOfLatencyAtATime() {
    Duration latency = Duration.ofMillis(50);
    assertThat(Floor.concurrency(100, 2, latency)).as("50 waves of 2").isCloseTo(2.5, within(1e-9));
    assertThat(Floor.concurrency(101, 2, latency)).as("the odd call takes a wave of its own")
        .isCloseTo(2.55, within(1e-9));
    assertThat(Floor.concurrency(1, 2, latency)).as("one call still takes its latency").isCloseTo(0.05, within(1e-9));
    assertThat(Floor.concurrency(2, 2, latency)).isCloseTo(0.05, within(1e-9));
    assertThat(Floor.concurrency(100, 1, Duration.ofMillis(10))).isCloseTo(1.0, within(1e-9));
    assertThat(Floor.concurrency(100, 100, latency)).isCloseTo(0.05, within(1e-9));
    assertThatThrownBy(() -> Floor.concurrency(100, 0, latency)).hasMessageContaining("inFlight");
  }

  @Test
  void theCapRowsFloorIsTheCapsAndTheWrongResetsTheWindows() {
    ZooServer cap = ZooMatrix.servers(Optional.empty()).stream()
        .filter(server -> server.name().equals("concurrency/github-403")).findFirst().orElseThrow();
    ZooServer wrongReset = ZooMatrix.servers(Optional.empty()).stream()
        .filter(server -> server.name().equals("fixed-window/wrong-reset")).findFirst().orElseThrow();

    assertThat(cap.floorSeconds(100)).as("ceil(100 / 2) x 50 ms; the bucket of 1000 costs nothing")
        .isCloseTo(2.5, within(1e-9));
    assertThat(cap.floorSeconds(64)).isCloseTo(1.6, within(1e-9));
    assertThat(wrongReset.floorSeconds(100)).isEqualTo(Floor.windows(100, 20, SECOND));
  }

  @Test
  void aBucketAndAWindowTogetherTakeLongerThanEitherAlone() {
    Duration five = Duration.ofSeconds(5);
    // 60 by 2 s (the burst, then 40 at the rate), then 20 at once as the next window opens at 5 s, 20 more by 6 s
    assertThat(Floor.bucketAndWindows(100, 20, 20, 60, five)).isCloseTo(6.0, within(1e-9));
    assertThat(Floor.tokenBucket(100, 20, 20)).isEqualTo(4.0);
    assertThat(Floor.windows(100, 60, five)).isEqualTo(5.0);
    assertThat(Floor.bucketAndWindows(64, 20, 20, 60, five)).as("4 past the window's 60, at once at 5 s")
        .isCloseTo(5.0, within(1e-9));
    assertThat(Floor.bucketAndWindows(60, 20, 20, 60, five)).as("only the bucket binds")
        .isCloseTo(Floor.tokenBucket(60, 20, 20), within(1e-9));
    assertThat(Floor.bucketAndWindows(20, 20, 20, 60, five)).isZero();
    assertThat(Floor.bucketAndWindows(100, 1000, 1000, 20, Duration.ofSeconds(1))).as("only the window binds")
        .isCloseTo(Floor.windows(100, 20, Duration.ofSeconds(1)), within(1e-9));
    // a token's wait that crosses into the next window opens it: 3 per 1 s, a token every 0.5 s
    assertThat(Floor.bucketAndWindows(5, 1, 2, 3, Duration.ofSeconds(1))).isCloseTo(2.0, within(1e-9));
  }

  @Test
  void aRoundRobinMixGivesEachSlotItsShare() {
    assertThat(Floor.roundRobinShare(100, 4, 0, 3)).as("3 in 4").isEqualTo(75);
    assertThat(Floor.roundRobinShare(100, 4, 3, 4)).as("1 in 4").isEqualTo(25);
    assertThat(Floor.roundRobinShare(10, 4, 0, 3)).as("calls 0-2, 4-6, 8-9").isEqualTo(8);
    assertThat(Floor.roundRobinShare(10, 4, 3, 4)).as("calls 3 and 7").isEqualTo(2);
    assertThat(Floor.roundRobinShare(3, 4, 3, 4)).as("the cycle's last slot, never reached").isZero();
    assertThat(Floor.roundRobinShare(7, 1, 0, 1)).isEqualTo(7);
    assertThatThrownBy(() -> Floor.roundRobinShare(10, 4, 3, 5)).hasMessageContaining("slots");
  }

  @Test
  void theTwoBudgetsFloorIsTheLargerOfEachBudgetsOwnForItsShare() {
    ZooServer budgets = ZooMatrix.servers(Optional.empty()).stream()
        .filter(server -> server.name().equals("budgets/x-ratelimit")).findFirst().orElseThrow();

    // core: 75 calls at 20 a window, 3 windows after the first; search: 25 at 5, 4 windows after it
    assertThat(Floor.windows(75, 20, SECOND)).isEqualTo(3.0);
    assertThat(Floor.windows(25, 5, SECOND)).isEqualTo(4.0);
    assertThat(budgets.floorSeconds(100)).as("search's, the larger").isEqualTo(4.0);
    // 64 calls: core 48 (2 windows after the first), search 16 (3 after it)
    assertThat(budgets.floorSeconds(64)).isEqualTo(3.0);
    // 3 calls: all core, within its first window
    assertThat(budgets.floorSeconds(3)).isZero();
    // 20 calls: core 15 at once, search 5 at once
    assertThat(budgets.floorSeconds(20)).isZero();
    assertThat(budgets.floorSeconds(24)).as("search's sixth call waits a window").isEqualTo(1.0);
  }

  @Test
  void noCallsIsRefused() {
    assertThatThrownBy(() -> Floor.tokenBucket(0, 20, 20)).hasMessageContaining("requests");
  }
}
