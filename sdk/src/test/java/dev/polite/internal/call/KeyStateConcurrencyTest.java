package dev.polite.internal.call;

import static org.assertj.core.api.Assertions.assertThat;

import dev.polite.CallContext;
import dev.polite.HeaderLines;
import dev.polite.Polite;
import dev.polite.RateLimitSignals;
import dev.polite.RequestView;
import dev.polite.Sleeper;
import dev.polite.Ticker;
import dev.polite.internal.model.Permit;
import java.net.URI;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.RepeatedTest;

/**
 * Many threads on one key never get more than its bucket allows: over every span of the times
 * at which calls were let go, at most {@code burst + rate * span}. Checked on the times the key
 * itself granted (on a shared fake clock), since any later reading would mix in other threads'
 * sleeps.
 */
class KeyStateConcurrencyTest {
  private static final CallContext CONTEXT = CallContext.of("k", RequestView.of("GET", URI.create("http://localhost/"), HeaderLines.empty()), 1);
  private static final double RATE = 10;
  private static final double BURST = 5;

  @RepeatedTest(10)
  void manyThreadsOnOneKeyNeverGetMoreThanTheBucketAllows() throws Exception {
    AtomicLong now = new AtomicLong(1_000_000_000L);
    Ticker ticker = now::get;
    Sleeper sleeper = (deadline, stop) -> now.accumulateAndGet(deadline, Math::max);
    KeyState state = new KeyState("k", Polite.builder().clock(ticker, sleeper)
        .startingRate(RATE).startingBurst(BURST).maxWait(ChronoUnit.FOREVER.getDuration()).build().config(), now.get());
    List<Long> granted = Collections.synchronizedList(new ArrayList<>());
    AtomicInteger inFlight = new AtomicInteger();
    AtomicInteger maxInFlight = new AtomicInteger();

    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<?>> futures = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        futures.add(pool.submit(() -> {
          for (int i = 0; i < 25; i++) {
            Patience patience = new Patience(ticker, sleeper, () -> false, Long.MAX_VALUE,
                TimeUnit.HOURS.toNanos(1));
            Permit permit = state.acquire(new Acquisition(CONTEXT, 0), patience);
            granted.add(permit.sentAt());
            maxInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
            inFlight.decrementAndGet();
            state.onAnswer(200, RateLimitSignals.none(), permit, CONTEXT);
          }
          return null;
        }));
      }
      for (Future<?> f : futures) {
        f.get(30, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }

    List<Long> times = new ArrayList<>(granted);
    Collections.sort(times);
    assertThat(times).hasSize(200);
    for (int i = 0; i < times.size(); i++) {
      for (int j = i; j < times.size(); j++) {
        double span = (times.get(j) - times.get(i)) / 1e9;
        assertThat(j - i + 1.0).as("calls let go in a span of %.3f s", span)
            .isLessThanOrEqualTo(BURST + RATE * span + 1e-6);
      }
    }
    // 200 calls at 10/s after a burst of 5: the last goes at 19.5 s.
    assertThat((times.get(199) - times.get(0)) / 1e9).isGreaterThanOrEqualTo(19.5 - 1e-6);
  }
}
