package dev.polite.internal.call;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.polite.CallContext;
import dev.polite.HeaderLines;
import dev.polite.Polite;
import dev.polite.RateLimitSignals;
import dev.polite.RateLimitedException;
import dev.polite.RequestView;
import dev.polite.Sleeper;
import dev.polite.Ticker;
import dev.polite.internal.model.DoubtedDelay;
import dev.polite.internal.model.Permit;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * A pause longer than any call may wait (a quota spent for an hour, a Retry-After of a day): every
 * call but the probe is told at once, with the server's delay, and the probe goes once per max
 * wait. Its neighbours keep their rules: a pause a call can wait out is waited out.
 */
class LongPauseTest {
  private static final long SECOND = 1_000_000_000L;
  private static final long MAX_WAIT = 60 * SECOND;
  private static final CallContext CONTEXT = CallContext.of("k", RequestView.of("GET", URI.create("http://localhost/"), HeaderLines.empty()), 1);

  private final AtomicLong now = new AtomicLong(1_000 * SECOND);
  private final Ticker ticker = now::get;
  private final Sleeper sleeper = (deadline, stop) -> now.accumulateAndGet(deadline, Math::max);
  private final KeyState state = new KeyState("k",
      Polite.builder().clock(ticker, sleeper).cautiousStart(false)
          .maxWait(Duration.ofNanos(MAX_WAIT)).build().config(),
      now.get());

  private Permit go() throws Exception {
    return state.acquire(new Acquisition(CONTEXT, 1), new Patience(ticker, sleeper, () -> false, Long.MAX_VALUE, MAX_WAIT));
  }

  /** GitHub's answer to a spent quota: 403, remaining 0, the reset {@code reset} away. */
  private static RateLimitSignals spent(Duration reset) {
    return RateLimitSignals.builder().limit(5000).remaining(0).reset(reset).rejection(true).build();
  }

  private static RateLimitSignals ok(long remaining, Duration reset) {
    return RateLimitSignals.builder().limit(5000).remaining(remaining).reset(reset).build();
  }

  private void failsAtOnceWithTheServersDelay(Duration delay) {
    long before = now.get();
    assertThatThrownBy(this::go)
        .isInstanceOfSatisfying(RateLimitedException.class,
            e -> assertThat(e.requestedDelay()).isEqualTo(delay))
        .hasMessageContaining("paused");
    assertThat(now.get()).as("no time waited").isEqualTo(before);
  }

  @Test
  void aQuotaSpentForAnHourFailsEveryCallAtOnceAndOneProbeGoesPerMaxWait() throws Exception {
    state.onAnswer(403, spent(Duration.ofHours(1)), go(), CONTEXT);
    for (int i = 0; i < 30; i++) {
      failsAtOnceWithTheServersDelay(Duration.ofHours(1));
    }

    now.addAndGet(MAX_WAIT);
    Permit probe = go();
    assertThat(now.get()).as("the probe goes when its time comes, without waiting").isEqualTo(1_060 * SECOND);
    failsAtOnceWithTheServersDelay(Duration.ofMinutes(59)); // the probe is out: the others do not wait for it

    state.onAnswer(403, spent(Duration.ofMinutes(59)), probe, CONTEXT);
    failsAtOnceWithTheServersDelay(Duration.ofMinutes(59));
    now.addAndGet(MAX_WAIT - 1);
    failsAtOnceWithTheServersDelay(Duration.ofMinutes(58).plusNanos(1));

    now.addAndGet(1);
    Permit second = go();
    state.onAnswer(200, ok(4999, Duration.ofMinutes(58)), second, CONTEXT);
    Permit after = go();
    assertThat(after).as("a probe that was let through ends the pause").isNotNull();
  }

  @Test
  void aRetryAfterOfADayIsBoundedTheSameWayOnceTheCallsAfterItConfirmIt() throws Exception {
    RateLimitSignals aDay = RateLimitSignals.builder().retryAfter(Duration.ofDays(1)).rejection(true).build();
    // A key that shows no limit doubts the first such refusal (DoubtedDelay): the calls after it go.
    for (int i = 0; i <= DoubtedDelay.CONFIRMING; i++) {
      state.onAnswer(429, aDay, go(), CONTEXT);
    }
    failsAtOnceWithTheServersDelay(Duration.ofDays(1));
    now.addAndGet(MAX_WAIT);
    assertThat(go()).as("the probe").isNotNull();
  }

  @Test
  void aPauseACallCanWaitOutIsWaitedOut() throws Exception {
    state.onAnswer(429, RateLimitSignals.builder().retryAfter(Duration.ofSeconds(5)).rejection(true).build(),
        go(), CONTEXT);
    long before = now.get();
    go();
    assertThat(now.get() - before).isEqualTo(5 * SECOND);
  }

  @Test
  void aPauseJustOverTheMaxWaitIsWaitedOutByACallThatStillHasTheTime() throws Exception {
    state.onAnswer(403, spent(Duration.ofSeconds(61)), go(), CONTEXT);
    failsAtOnceWithTheServersDelay(Duration.ofSeconds(61));
    now.addAndGet(30 * SECOND);
    long before = now.get();
    go(); // 31 s of the pause are left, and this call may wait 60
    assertThat(now.get() - before).isBetween(30 * SECOND, 31 * SECOND);
  }

  @Test
  void aSpentQuotaOnASuccessWhoseResetContradictsTheLearnedWindowPausesForTheWindowAtMost() throws Exception {
    // A 10-per-second window learned from two answers that agree; then the last call of a window
    // says remaining 0 with a reset 200 days out.
    state.onAnswer(200, RateLimitSignals.builder().limit(10).remaining(9).reset(Duration.ofMillis(900)).build(),
        go(), CONTEXT);
    state.onAnswer(200, RateLimitSignals.builder().limit(10).remaining(8).reset(Duration.ofMillis(900)).build(),
        go(), CONTEXT);
    state.onAnswer(200, RateLimitSignals.builder().limit(10).remaining(0).reset(Duration.ofDays(200)).build(),
        go(), CONTEXT);
    long before = now.get();
    go();
    assertThat(now.get() - before).as("paused until the instant the agreeing answers named, not 200 days")
        .isLessThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(900));
  }

  @Test
  void aFleetsPauseOfAnHourFailsCallsAtOnceAndThisInstanceProbesOncePerMaxWait() throws Exception {
    PausedFleet fleet = new PausedFleet();
    KeyState inFleet = new KeyState("k", Polite.builder().clock(ticker, sleeper).cautiousStart(false)
        .maxWait(Duration.ofNanos(MAX_WAIT)).sharedState(fleet).build().config(), now.get());
    fleet.until = now.get() + TimeUnit.HOURS.toNanos(1); // another instance's spent quota
    Acquisition first = new Acquisition(CONTEXT, 1);
    long before = now.get();
    assertThatThrownBy(() -> inFleet.acquire(first, new Patience(ticker, sleeper, () -> false, Long.MAX_VALUE, MAX_WAIT)))
        .isInstanceOfSatisfying(RateLimitedException.class,
            e -> assertThat(e.requestedDelay()).isEqualTo(Duration.ofHours(1)));
    assertThat(now.get()).isEqualTo(before);

    now.addAndGet(MAX_WAIT);
    Permit probe = inFleet.acquire(new Acquisition(CONTEXT, 1),
        new Patience(ticker, sleeper, () -> false, Long.MAX_VALUE, MAX_WAIT));
    assertThat(now.get()).as("the probe went without waiting").isEqualTo(before + MAX_WAIT);
    inFleet.onAnswer(200, ok(4999, Duration.ofMinutes(59)), probe, CONTEXT);
    assertThat(fleet.until).as("the probe's success is told to the fleet").isZero();
  }

  /** A fleet that reports a pause until {@code until}, and ends it when told of a resumption. */
  private static final class PausedFleet implements dev.polite.SharedState, dev.polite.SharedKey {
    volatile long until;

    @Override public dev.polite.SharedKey join(String key, Ticker ticker, Runnable onNews) { return this; }
    @Override public long take(double cost, double sendRate, int inFlight, long now) { return 0; }
    @Override public long pauseLeft(long now) { return Math.max(0, until - now); }
    @Override public boolean pauseForRefusal() { return false; }
    @Override public int instances() { return 2; }
    @Override public void paceLearned(double rate, double burst, boolean advertised, long now) {}
    @Override public void paused(long pauseNanos, boolean refused, long now) {}
    @Override public void resumed(long now) { until = 0; }
    @Override public void remaining(long remaining, int inFlight, long now) {}
    @Override public void leave() {}
  }

  @Test
  void aCallAsleepForItsTokensWhenAPauseBeginsWakesAndSleepsThePauseOnceWithoutSpinning() throws Exception {
    AtomicLong clock = new AtomicLong(1_000 * SECOND);
    java.util.List<Long> sleeps = new java.util.ArrayList<>();
    Permit[] other = new Permit[1];
    KeyState[] key = new KeyState[1];
    Sleeper honest = (deadline, stop) -> { // honours stop, as the system sleeper does
      sleeps.add(deadline - clock.get());
      if (sleeps.size() == 1) { // while the call sleeps for its token, another call is refused
        key[0].onAnswer(429, RateLimitSignals.builder().retryAfter(Duration.ofSeconds(5)).rejection(true).build(),
            other[0], CONTEXT);
      }
      if (sleeps.size() > 10) {
        throw new AssertionError("spinning: " + sleeps.size() + " sleeps, the last " + sleeps.get(sleeps.size() - 1));
      }
      if (stop.getAsBoolean()) {
        return;
      }
      clock.accumulateAndGet(deadline, Math::max);
    };
    key[0] = new KeyState("k", Polite.builder().clock(clock::get, honest).cautiousStart(false)
        .maxWait(Duration.ofNanos(MAX_WAIT)).build().config(), clock.get());
    Patience patience = new Patience(clock::get, honest, () -> false, Long.MAX_VALUE, MAX_WAIT);
    RateLimitSignals oneLeft = RateLimitSignals.builder().limit(10).remaining(1).window(Duration.ofSeconds(1))
        .reset(Duration.ofSeconds(1)).build();
    key[0].onAnswer(200, oneLeft, key[0].acquire(new Acquisition(CONTEXT, 1), patience), CONTEXT);
    other[0] = key[0].acquire(new Acquisition(CONTEXT, 1), new Patience(clock::get, honest, () -> false, Long.MAX_VALUE, MAX_WAIT));
    long before = clock.get();
    key[0].acquire(new Acquisition(CONTEXT, 1), new Patience(clock::get, honest, () -> false, Long.MAX_VALUE, MAX_WAIT));
    assertThat(sleeps).as("asleep for its token, woken by the pause, then the pause").hasSize(2);
    assertThat(clock.get() - before).isBetween(5 * SECOND, 6 * SECOND);
  }
}
