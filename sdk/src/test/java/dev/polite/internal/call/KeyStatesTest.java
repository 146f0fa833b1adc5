package dev.polite.internal.call;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.polite.CallContext;
import dev.polite.HeaderLines;
import dev.polite.KeySnapshot;
import dev.polite.Polite;
import dev.polite.PoliteConfig;
import dev.polite.PoliteListener;
import dev.polite.RateLimitPolicy;
import dev.polite.RateLimitSignals;
import dev.polite.RateLimitedException;
import dev.polite.RequestView;
import dev.polite.SharedKey;
import dev.polite.SharedState;
import dev.polite.Sleeper;
import dev.polite.Ticker;
import dev.polite.internal.model.Permit;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * Which keys a bounded {@link KeyStates} forgets: only those nothing depends on, so that a key
 * is never split into an old state its waiting callers keep and a fresh one new calls get.
 */
class KeyStatesTest {
  private static final long HOUR = TimeUnit.HOURS.toNanos(1);
  private final AtomicLong now = new AtomicLong(1_000_000_000L);
  private final Ticker ticker = now::get;
  private final Sleeper sleeper = (deadline, stop) -> now.accumulateAndGet(deadline, Math::max);

  private PoliteConfig config(Sleeper sleeper, SharedState fleet) {
    return Polite.builder().clock(ticker, sleeper).cautiousStart(false).maxKeys(2)
        .maxWait(Duration.ofHours(1)).sharedState(fleet).build().config();
  }

  private static CallContext context(String key, double cost) {
    return CallContext.of(key, RequestView.of("GET", URI.create("http://localhost/"), HeaderLines.empty()), cost);
  }

  private Patience patience(Sleeper sleeper) {
    return new Patience(ticker, sleeper, () -> false, Long.MAX_VALUE, HOUR);
  }

  private static RateLimitSignals tenPerSecond(long remaining) {
    RateLimitPolicy p = RateLimitPolicy.builder("default").quota(10).window(Duration.ofSeconds(1))
        .remaining(remaining).reset(Duration.ofSeconds(1)).build();
    return RateLimitSignals.builder().addPolicy(p).governedBy(p).dialect("test").build();
  }

  /** Makes {@code count} new keys, each used a little later than the last. */
  private void flood(KeyStates keys, int count) {
    for (int i = 0; i < count; i++) {
      now.addAndGet(1_000_000);
      keys.get("other-" + i);
    }
  }

  private void answer(KeyState state, int status, RateLimitSignals signals) throws Exception {
    CallContext ctx = context(state.key(), 1);
    Permit permit = state.acquire(new Acquisition(ctx, 0), patience(sleeper));
    state.onAnswer(status, signals, permit, ctx);
  }

  @Test
  void aPausedKeyWithNoCallerIsKeptPastTheBoundWhileIdleOnesGo() throws Exception {
    KeyStates keys = new KeyStates(config(sleeper, SharedState.none()));
    KeyState paused = keys.get("paused");
    answer(paused, 429, RateLimitSignals.builder().retryAfter(Duration.ofMinutes(10))
        .rejection(true).build());
    assertThat(paused.isPaused()).isTrue();

    flood(keys, 20);

    assertThat(keys.find("paused")).as("the oldest, but paused: kept").isSameAs(paused);
    assertThat(keys.get("paused").isPaused()).as("a new call still finds the pause").isTrue();
    assertThat(keys.all().size()).as("idle keys were forgotten").isLessThanOrEqualTo(3);
  }

  @Test
  void pausedKeysAloneAreBoundedAtTwiceTheBound() throws Exception {
    KeyStates keys = new KeyStates(config(sleeper, SharedState.none()));
    for (int i = 0; i < 40; i++) {
      now.addAndGet(1_000_000);
      answer(keys.get("tenant-" + i), 429, RateLimitSignals.builder()
          .retryAfter(Duration.ofMinutes(10)).rejection(true).build());
    }
    assertThat(keys.all().size()).as("a flood of refused tenants cannot grow memory without end")
        .isLessThanOrEqualTo(2 * 2 + 1);
    assertThat(keys.find("tenant-39")).as("the newest kept").isNotNull();
  }

  @Test
  void aKeyWithAScheduledCallAsleepOnItsReservationIsKept() throws Exception {
    KeyStates keys = new KeyStates(config(sleeper, SharedState.none()));
    KeyState paced = keys.get("paced");
    answer(paced, 200, tenPerSecond(2));
    Acquisition five = new Acquisition(context("paced", 5), 0);
    long sleep = paced.step(five, patience(sleeper), now.get(), () -> {});
    assertThat(sleep).as("three tokens short at ten a second").isPositive();

    flood(keys, 20);

    assertThat(keys.find("paced")).isSameAs(paced);
    assertThat(paced.step(five, patience(sleeper), now.get() + sleep, null)).isZero();
  }

  @Test
  void aKeyWithABlockedCallerAsleepOnItsTokensIsKept() throws Exception {
    CountDownLatch asleep = new CountDownLatch(1);
    CountDownLatch wake = new CountDownLatch(1);
    Sleeper parked = (deadline, stop) -> {
      asleep.countDown();
      if (!wake.await(10, TimeUnit.SECONDS)) {
        throw new AssertionError("never woken");
      }
      now.accumulateAndGet(deadline, Math::max);
    };
    KeyStates keys = new KeyStates(config(parked, SharedState.none()));
    KeyState paced = keys.get("paced");
    paced.onAnswer(200, tenPerSecond(2), paced.acquire(new Acquisition(context("paced", 1), 0),
        patience(sleeper)), context("paced", 1));
    AtomicReference<Object> got = new AtomicReference<>();
    Thread caller = new Thread(() -> {
      try {
        got.set(paced.acquire(new Acquisition(context("paced", 5), 0), patience(parked)));
      } catch (Exception e) {
        got.set(e);
      }
    });
    caller.start();
    assertThat(asleep.await(10, TimeUnit.SECONDS)).isTrue();

    flood(keys, 20);
    assertThat(keys.find("paced")).as("its caller waits on it").isSameAs(paced);

    wake.countDown();
    caller.join(10_000);
    assertThat(got.get()).isInstanceOf(Permit.class);
  }

  @Test
  void aCallThatHeldAForgottenKeyIsToldSoAndHoldsNothing() throws Exception {
    KeyStates keys = new KeyStates(config(sleeper, SharedState.none()));
    KeyState old = keys.get("old");
    flood(keys, 20);
    assertThat(keys.find("old")).isNull();
    assertThat(old.isRetired()).isTrue();

    Acquisition late = new Acquisition(context("old", 1), 0);
    assertThat(old.step(late, patience(sleeper), now.get(), () -> {})).isEqualTo(KeyState.RETIRED);
    assertThat(old.waitingForSignal()).isZero();
    assertThat(old.acquire(new Acquisition(context("old", 1), 0), patience(sleeper))).isNull();
    assertThat(keys.get("old")).isNotSameAs(old);
  }

  @Test
  void twoCallsMakingAKeyAtOnceMakeOneStateThatJoinsTheFleetOnceAndIsHeardFirst() throws Exception {
    AtomicInteger joined = new AtomicInteger();
    AtomicInteger left = new AtomicInteger();
    List<String> heard = new CopyOnWriteArrayList<>();
    AtomicReference<KeyStates> keys = new AtomicReference<>();
    AtomicReference<KeyState> othersState = new AtomicReference<>();
    Thread other = new Thread(() -> {
      othersState.set(keys.get().get("k"));
      heard.add("the other call has it");
    });
    SharedState fleet = (key, t, onNews) -> {
      joined.incrementAndGet();
      // While this call makes the key, another asks for it: it must wait for this state (it
      // blocks on the map's entry), not make one of its own, nor have it before it is heard.
      other.start();
      while (other.getState() != Thread.State.BLOCKED && other.isAlive()) {
        Thread.onSpinWait();
      }
      return new LeavingKey(left);
    };
    PoliteListener listener = new PoliteListener() {
      @Override
      public void keyAdded(String key, Supplier<KeySnapshot> state) {
        heard.add("added " + key);
      }
    };
    keys.set(new KeyStates(Polite.builder().clock(ticker, sleeper).addListener(listener)
        .sharedState(fleet).build().config()));
    KeyState mine = keys.get().get("k");
    other.join(10_000);

    assertThat(othersState.get()).isSameAs(mine);
    assertThat(joined.get()).isEqualTo(1);
    assertThat(left.get()).isZero();
    assertThat(heard).containsExactly("added k", "the other call has it");
  }

  @Test
  void aCallTheFleetCanNeverLendIsRefusedAtOnceAndHoldsNothing() {
    SharedState fleet = (key, t, onNews) -> new NeverLends();
    KeyState state = new KeyStates(config(sleeper, fleet)).get("k");
    assertThatThrownBy(() -> state.acquire(new Acquisition(context("k", 50), 0), patience(sleeper)))
        .isInstanceOf(RateLimitedException.class)
        .hasMessageContaining("the fleet can never lend a cost of 50.0");
    assertThat(state.snapshot().inFlight()).isZero();
    assertThat(now.get()).as("no time was spent waiting").isEqualTo(1_000_000_000L);
  }

  /** A fleet that can never lend a call its tokens. */
  private record NeverLends() implements SharedKey {
    @Override public long take(double cost, double sendRate, int inFlight, long now) { return NEVER; }
    @Override public long pauseLeft(long now) { return 0; }
    @Override public boolean pauseForRefusal() { return false; }
    @Override public int instances() { return 2; }
    @Override public void paceLearned(double rate, double burst, boolean advertised, long now) {}
    @Override public void paused(long pauseNanos, boolean refused, long now) {}
    @Override public void resumed(long now) {}
    @Override public void remaining(long remaining, int inFlight, long now) {}
    @Override public void leave() {}
  }

  /** A fleet's handle that only counts leaving. */
  private record LeavingKey(AtomicInteger left) implements SharedKey {
    @Override public long take(double cost, double sendRate, int inFlight, long now) { return 0; }
    @Override public long pauseLeft(long now) { return 0; }
    @Override public boolean pauseForRefusal() { return false; }
    @Override public int instances() { return 1; }
    @Override public void paceLearned(double rate, double burst, boolean advertised, long now) {}
    @Override public void paused(long pauseNanos, boolean refused, long now) {}
    @Override public void resumed(long now) {}
    @Override public void remaining(long remaining, int inFlight, long now) {}
    @Override public void leave() { left.incrementAndGet(); }
  }
}
