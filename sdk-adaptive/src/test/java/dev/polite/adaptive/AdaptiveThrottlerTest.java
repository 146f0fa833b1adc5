package dev.polite.adaptive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.Test;

/** The throttle's decision on a fake clock: formula, steady state, levels, options, threads. */
class AdaptiveThrottlerTest {
  private static final long T0 = 1_000_000_000_000L;
  private static final long SECOND = 1_000_000_000L;
  /** nextDouble() just below 1: never drops. */
  private static final RandomGenerator NEVER = () -> -1L;
  /** nextDouble() 0: drops whenever the probability is above 0. */
  private static final RandomGenerator ALWAYS = () -> 0L;

  /** A throttler that has seen {@code requests} requests and {@code accepts} accepts at T0. */
  private static AdaptiveThrottler seen(AdaptiveThrottle.Builder config, int requests, int accepts) {
    AdaptiveThrottler t = config.random(NEVER).build().newThrottler("k");
    for (int i = 0; i < requests; i++) {
      assertThat(t.admit(T0, Criticality.CRITICAL_PLUS).allowed()).isTrue();
      t.record(T0, i < accepts);
    }
    return t;
  }

  @Test
  void reproducesTheBookFormulaVectors() {
    AdaptiveThrottle.Builder book = AdaptiveThrottle.builder().bookExact();
    assertThat(seen(book, 100, 50).dropProbability(T0, Criticality.CRITICAL)).isZero();
    assertThat(seen(book, 300, 100).dropProbability(T0, Criticality.CRITICAL))
        .isCloseTo(100.0 / 301, within(1e-12));
    assertThat(seen(AdaptiveThrottle.builder().bookExact().multiplier(1.1), 300, 100)
        .dropProbability(T0, Criticality.CRITICAL)).isCloseTo(190.0 / 301, within(1e-12));
    assertThat(seen(book, 1000, 0).dropProbability(T0, Criticality.CRITICAL))
        .isCloseTo(1000.0 / 1001, within(1e-12));
  }

  @Test
  void theBookFormSendsTwiceTheCapacityUnderOverload() {
    Steady s = steadyOverload(AdaptiveThrottle.bookExact());
    assertThat(s.rejectedFraction()).as("one refusal per accept").isCloseTo(0.5, within(0.02));
    assertThat(s.sentPerSecond()).isCloseTo(200, within(6.0));
    assertThat(s.acceptedPerSecond()).isCloseTo(100, within(1.0));
  }

  @Test
  void politeDefaultsSendAFifthMoreThanTheCapacity() {
    Steady s = steadyOverload(AdaptiveThrottle.create());
    assertThat(s.rejectedFraction()).as("(K - 1) / K with K = 1.2").isCloseTo(1 / 6.0, within(0.02));
    assertThat(s.acceptedPerSecond()).isGreaterThan(97);
  }

  @Test
  void lowerLevelsAreDroppedFirstAndMore() {
    AdaptiveThrottler t = seen(AdaptiveThrottle.builder(), 100, 80); // K = 1.2
    double plus = t.dropProbability(T0, Criticality.CRITICAL_PLUS);
    double critical = t.dropProbability(T0, Criticality.CRITICAL);
    double sheddablePlus = t.dropProbability(T0, Criticality.SHEDDABLE_PLUS);
    double sheddable = t.dropProbability(T0, Criticality.SHEDDABLE);
    assertThat(plus).as("K 1.4 allows 112 requests per 80 accepts").isZero();
    assertThat(critical).isCloseTo((100 - 96) / 101.0, within(1e-9));
    assertThat(sheddablePlus).isCloseTo((100 - 92) / 101.0, within(1e-9));
    assertThat(sheddable).isCloseTo((100 - 88) / 101.0, within(1e-9));
    assertThat(sheddable).isGreaterThan(sheddablePlus).isGreaterThan(critical).isGreaterThan(plus);
  }

  @Test
  void nothingIsDroppedWhileTheServerAcceptsEverything() {
    AdaptiveThrottler t = seen(AdaptiveThrottle.builder(), 500, 500);
    for (Criticality c : Criticality.values()) {
      assertThat(t.dropProbability(T0, c)).as(c.name()).isZero();
    }
  }

  @Test
  void theCapLeavesATenthOfDemandProbingADeadServer() {
    AdaptiveThrottler t = seen(AdaptiveThrottle.builder(), 1000, 0);
    assertThat(t.dropProbability(T0, Criticality.CRITICAL)).isEqualTo(0.9);
  }

  @Test
  void droppedRequestsCountOnlyWhenConfigured() {
    AdaptiveThrottler counting = AdaptiveThrottle.builder().random(ALWAYS).build().newThrottler("k");
    AdaptiveThrottler notCounting =
        AdaptiveThrottle.builder().countLocalDrops(false).random(ALWAYS).build().newThrottler("k");
    for (AdaptiveThrottler t : List.of(counting, notCounting)) {
      t.admit(T0, Criticality.CRITICAL); // the first request always goes
      t.record(T0, false);
      for (int i = 0; i < 10; i++) {
        assertThat(t.admit(T0, Criticality.CRITICAL).allowed()).isFalse();
      }
    }
    assertThat(counting.requests(T0)).isEqualTo(11);
    assertThat(notCounting.requests(T0)).isEqualTo(1);
  }

  @Test
  void aProbeGoesThroughAfterTheIntervalWithoutASend() {
    AdaptiveThrottler t = AdaptiveThrottle.builder().probeInterval(Duration.ofSeconds(1))
        .window(Duration.ofSeconds(10), 10).random(ALWAYS).build().newThrottler("k");
    t.admit(T0, Criticality.CRITICAL);
    t.record(T0, false);
    assertThat(t.admit(T0 + SECOND / 2, Criticality.CRITICAL).allowed()).isFalse();
    Admission probe = t.admit(T0 + SECOND, Criticality.CRITICAL);
    assertThat(probe.allowed()).isTrue();
    assertThat(probe.probability()).isPositive();
    assertThat(t.admit(T0 + SECOND + 1, Criticality.CRITICAL).allowed()).isFalse();
  }

  @Test
  void theWindowForgetsOldRefusals() {
    AdaptiveThrottler t = seen(AdaptiveThrottle.builder(), 100, 0); // 2 s window
    assertThat(t.dropProbability(T0 + SECOND, Criticality.CRITICAL)).isPositive();
    assertThat(t.dropProbability(T0 + 2 * SECOND, Criticality.CRITICAL)).isZero();
  }

  @Test
  void countsStayExactUnderConcurrentUse() throws Exception {
    AdaptiveThrottler t = AdaptiveThrottle.builder().window(Duration.ofSeconds(60), 60)
        .random(new Random(7)).build().newThrottler("k");
    int threads = 8;
    int perThread = 20_000;
    AtomicLong accepted = new AtomicLong();
    CountDownLatch start = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int n = 0; n < threads; n++) {
        int seed = n;
        done.add(pool.submit(() -> {
          start.await();
          Random server = new Random(seed);
          for (int i = 0; i < perThread; i++) {
            Criticality c = Criticality.values()[i % 4];
            if (t.admit(T0 + i, c).allowed()) {
              boolean ok = server.nextDouble() < 0.6;
              t.record(T0 + i, ok);
              if (ok) {
                accepted.incrementAndGet();
              }
            }
          }
          return null;
        }));
      }
      start.countDown();
      for (Future<?> f : done) {
        f.get(30, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
    long now = T0 + perThread;
    assertThat(t.requests(now)).as("every admit, dropped or not").isEqualTo((long) threads * perThread);
    assertThat(t.accepts(now)).isEqualTo(accepted.get());
  }

  /**
   * Regression: before polite, calls wait in its pace for longer than the window. Counted when
   * they entered, 4 calls waiting on a healthy server read as 4 requests and 0 accepts, and the
   * throttle dropped 36 of 40 calls while the server refused nothing. Here 16 callers each wait
   * up to 8 s (four windows) for a server that answers one call every 500 ms and refuses none;
   * with a drop whenever the probability is above 0, not one may be dropped.
   */
  @Test
  void callsWaitingLongForAHealthyServerAreNeverDropped() {
    for (int callers : new int[] {1, 4, 16}) {
      AdaptiveThrottler t = AdaptiveThrottle.builder().random(ALWAYS).build().newThrottler("k");
      // Each caller's next call enters when its previous one is answered; answers leave in
      // entry order, one per 500 ms, as from a pace of 2 per second.
      java.util.PriorityQueue<long[]> free = new java.util.PriorityQueue<>((a, b) -> Long.compare(a[0], b[0]));
      for (int c = 0; c < callers; c++) {
        free.add(new long[] {T0});
      }
      long lastAnswer = T0;
      int drops = 0;
      for (int call = 0; call < 200; call++) {
        long entered = free.poll()[0];
        if (!t.admit(entered, Criticality.CRITICAL).allowed()) {
          drops++;
          free.add(new long[] {entered});
          continue;
        }
        long answered = Math.max(entered, lastAnswer) + SECOND / 2;
        lastAnswer = answered;
        assertThat(t.requests(entered)).as("a call still waiting is not counted").isLessThanOrEqualTo(t.accepts(entered));
        t.record(answered, true);
        free.add(new long[] {answered});
      }
      assertThat(drops).as("%d callers", callers).isZero();
      assertThat(lastAnswer - T0).as("they did wait, up to %d windows", callers / 4).isGreaterThanOrEqualTo(99 * SECOND);
    }
  }

  @Test
  void aSentRequestIsCountedWithItsOutcome() {
    AdaptiveThrottler t = AdaptiveThrottle.builder().random(ALWAYS).build().newThrottler("k");
    for (int i = 0; i < 10; i++) {
      assertThat(t.admit(T0, Criticality.CRITICAL).allowed()).as("call %d, nine others in flight", i).isTrue();
    }
    assertThat(t.requests(T0)).isZero();
    for (int i = 0; i < 10; i++) {
      t.record(T0 + SECOND, i < 5);
    }
    assertThat(t.requests(T0 + SECOND)).isEqualTo(10);
    assertThat(t.accepts(T0 + SECOND)).isEqualTo(5);
    assertThat(t.dropProbability(T0 + SECOND, Criticality.CRITICAL)).isCloseTo((10 - 6) / 11.0, within(1e-9));
  }

  /**
   * Uniform demand of 300/s for 600 s against a Bernoulli quota server of capacity 100/s (each
   * request accepted with probability min(1, 100 / requests in the last second)).
   */
  private static Steady steadyOverload(AdaptiveThrottle throttle) {
    AdaptiveThrottler t = throttle.toBuilder().random(new Random(1)).build().newThrottler("k");
    Random server = new Random(2);
    ArrayDeque<Long> lastSecond = new ArrayDeque<>();
    Steady s = new Steady();
    long step = SECOND / 300;
    for (long now = T0; now < T0 + 600 * SECOND; now += step) {
      if (!t.admit(now, Criticality.CRITICAL).allowed()) {
        continue;
      }
      lastSecond.addLast(now);
      while (lastSecond.peekFirst() <= now - SECOND) {
        lastSecond.removeFirst();
      }
      boolean ok = server.nextDouble() < Math.min(1, 100.0 / lastSecond.size());
      t.record(now, ok);
      if (now >= T0 + 300 * SECOND) {
        s.sent++;
        s.accepted += ok ? 1 : 0;
      }
    }
    return s;
  }

  private static final class Steady {
    long sent;
    long accepted;

    double rejectedFraction() {
      return 1 - accepted / (double) sent;
    }

    double sentPerSecond() {
      return sent / 300.0;
    }

    double acceptedPerSecond() {
      return accepted / 300.0;
    }
  }
}
