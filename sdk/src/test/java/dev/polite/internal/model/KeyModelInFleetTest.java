package dev.polite.internal.model;

import static org.assertj.core.api.Assertions.assertThat;

import dev.polite.Aimd;
import dev.polite.Polite;
import dev.polite.RateLimitSignals;
import dev.polite.SharedKey;
import dev.polite.SharedState;
import dev.polite.Sleeper;
import dev.polite.Ticker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What a key tells its fleet and takes from it, on a clock the test moves and a fake fleet. */
class KeyModelInFleetTest {
  private static final long MS = 1_000_000L;
  private static final long SECOND = 1_000 * MS;
  private static final RateLimitSignals NOTHING = RateLimitSignals.none();
  private static final RateLimitSignals REFUSED = RateLimitSignals.builder().rejection(true).build();

  private long now = 1_000 * SECOND;
  private final Fleet fleet = new Fleet();

  private KeyModel key() {
    return new KeyModel("k", Polite.builder().clock(() -> 0L, Sleeper.system())
        .rateController(Aimd.defaults()).maxWait(Duration.ofSeconds(60)).sharedState(fleet).build()
        .config(), fleet, now);
  }

  private Permit send(KeyModel key) {
    KeyModel.Reservation r = key.reserve(1, now);
    assertThat(r.waitNanos()).isZero();
    return key.grant(now, r);
  }

  @Test
  void beforeAnyPaceEachInstanceWidensItsWindowByItsShare() {
    fleet.instances = 4;
    KeyModel key = key();
    for (int i = 0; i < 4; i++) { // alone, four answers widen the window to 3 1/3
      key.onAnswer(200, NOTHING, send(key), now += MS);
    }
    send(key);
    assertThat(key.gateClosed()).isFalse();
    send(key);
    assertThat(key.gateClosed()).as("a quarter of a call per answer: two in flight").isTrue();
  }

  @Test
  void theRemainingCountIsTheFleetsAndThePaceIsToldAfterIt() {
    KeyModel key = key();
    key.onAnswer(200, ietf(15), send(key), now += MS);
    assertThat(fleet.told).containsSubsequence("remaining 15", "pace 20.0/20.0 advertised");
    now += SECOND; // this instance's bucket refills to its burst of 20
    key.onAnswer(200, ietf(2), send(key), now += MS);
    assertThat(fleet.told).contains("remaining 2");
    // Alone, "2 left" would leave this instance 2 tokens; in a fleet the fleet's bucket takes it.
    assertThat(key.snapshot(now).tokens()).isGreaterThan(10);
  }

  @Test
  void aFleetsKeyBelievesNoWindowShownToOneInstance() {
    KeyModel key = key();
    long began = now;
    for (int i = 0; i < 20; i++) {
      key.onAnswer(200, NOTHING, send(key), now += MS);
    }
    key.onAnswer(429, REFUSED, send(key), now += MS);
    now += key.pauseLeft(now);
    key.onAnswer(429, REFUSED, send(key), now += MS);
    now = Math.max(now + key.pauseLeft(now), began + SECOND);
    key.onAnswer(200, NOTHING, send(key), now += MS); // alone, this reopening shows a window
    // The fleet shares a pace: the next call waits for it, not for a window of this instance's.
    assertThat(key.toString()).doesNotContain(" per ");
  }

  private static RateLimitSignals ietf(long remaining) {
    return RateLimitSignals.builder().limit(20).remaining(remaining)
        .window(Duration.ofSeconds(1)).reset(Duration.ofMillis(750)).build();
  }

  @Test
  void aPauseTellsTheFleetWhetherARefusalBeganIt() {
    KeyModel key = key();
    RateLimitSignals retryAfter = RateLimitSignals.builder().rejection(true)
        .retryAfter(Duration.ofSeconds(2)).build();
    key.onAnswer(429, retryAfter, send(key), now += MS);
    assertThat(fleet.told).contains("paused 2000 ms refused");
  }

  /** A second of successes (evidence of what the server admits), a refusal, then 40 paced. */
  private KeyModel pacedByItsOwnRefusalThenFortySuccesses() {
    KeyModel key = key();
    for (int i = 0; i < 20; i++) {
      key.onAnswer(200, NOTHING, send(key), now += 50 * MS);
    }
    key.onAnswer(429, REFUSED, send(key), now += MS);
    assertThat(toldPace()).isFinite();
    now += 3 * SECOND; // past the backoff
    for (int i = 0; i < 40; i++) {
      KeyModel.Reservation r = key.reserve(1, now);
      now += r.waitNanos();
      key.onAnswer(200, NOTHING, key.grant(now, r), now += MS);
    }
    return key;
  }

  /** The discovered pace this key last told the fleet; infinite when none. */
  private double toldPace() {
    double pace = Double.POSITIVE_INFINITY;
    for (String line : fleet.told) {
      if (line.startsWith("pace ") && line.endsWith(" discovered")) {
        pace = Double.parseDouble(line.substring(5, line.indexOf('/')));
      }
    }
    return pace;
  }

  @Test
  void aDiscoveredPaceIsToldToTheFleetAndTheFleetsTakePacesTheKeyNotItsOwnBucket() {
    KeyModel key = pacedByItsOwnRefusalThenFortySuccesses();
    assertThat(toldPace()).as("climbed from the cut, and told").isFinite().isGreaterThan(0.5);
    // At its own pace the key would hold the units the fleet leased it past their time.
    assertThat(key.pace()).isInfinite();
    assertThat(key.reserve(1, now).waitNanos()).isZero();
    assertThat(key.snapshot(now).source()).isEqualTo(dev.polite.KeySnapshot.Source.DISCOVERED);
  }

  @Test
  void theFleetsRefusalCutsADiscoveredPaceAsAnOwnRefusalWould() {
    KeyModel key = pacedByItsOwnRefusalThenFortySuccesses();
    double grown = toldPace();
    key.pauseForFleet(SECOND, true, now);
    assertThat(toldPace()).as("cut from %s", grown).isLessThan(grown);
    double cut = toldPace();
    key.pauseForFleet(2 * SECOND, true, now += MS);
    assertThat(toldPace()).as("the same pause, lengthened: no second cut").isEqualTo(cut);
  }

  @Test
  void aCallAdmittedBeforeTheFleetsCutAndAnsweredAfterItRaisesThatCut() {
    KeyModel key = pacedByItsOwnRefusalThenFortySuccesses();
    KeyModel.Reservation r = key.reserve(1, now);
    now += r.waitNanos();
    Permit onTheWire = key.grant(now, r);
    key.pauseForFleet(SECOND, true, now += MS);
    double cut = toldPace();
    key.onAnswer(200, NOTHING, onTheWire, now += MS);
    // One more accept over the at most ten seconds the cut read: at least 0.9 / 10 higher (a
    // millisecond's climb is a thousandth).
    assertThat(toldPace()).as("what this instance had admitted when the fleet cut, one more")
        .isGreaterThan(cut + 0.05);
  }

  @Test
  void theFleetsSpentQuotaPausesButDoesNotCut() {
    KeyModel key = key();
    for (int i = 0; i < 20; i++) {
      key.onAnswer(200, NOTHING, send(key), now += 50 * MS);
    }
    key.onAnswer(429, REFUSED, send(key), now += MS);
    now += 3 * SECOND;
    double pace = toldPace();
    key.pauseForFleet(SECOND, false, now);
    assertThat(toldPace()).isEqualTo(pace);
    assertThat(key.pauseLeft(now)).isEqualTo(SECOND);
  }

  /** A fleet that records what it is told. */
  @Test
  void aKeyInAFleetBelievesNoBankAfterANamedPause() {
    KeyModel key = key();
    for (int i = 0; i < 20; i++) {
      key.onAnswer(200, NOTHING, send(key), now += MS);
    }
    key.onAnswer(429, RateLimitSignals.builder().rejection(true).retryAfter(Duration.ofSeconds(1))
        .build(), send(key), now += MS);
    now += key.pauseLeft(now);
    key.onAnswer(200, NOTHING, send(key), now += MS); // the bucket's one token
    // What the server banked is the fleet's, not this instance's: none goes past the fleet's pace.
    assertThat(key.toString()).doesNotContain("bank");
  }

  @Test
  void aFleetsKeyKeepsNoCountOfItsOwnWhereTheServerNamesNoReset() {
    KeyModel key = key();
    RateLimitSignals spent = RateLimitSignals.builder().limit(20).remaining(0).build();
    key.onAnswer(429, RateLimitSignals.builder().rejection(true).limit(20).remaining(0)
        .retryAfter(Duration.ofSeconds(1)).build(), send(key), now += MS); // alone, a refill learnt
    now += key.pauseLeft(now);
    key.onAnswer(200, spent, send(key), now += MS);
    // Alone, "0 left" would pause the key for the refill; the other instances spend the count too.
    assertThat(key.pauseLeft(now)).isZero();
    key.onAnswer(200, RateLimitSignals.builder().limit(20).remaining(5).build(), send(key), now += MS);
    for (int i = 0; i < 5; i++) {
      send(key);
    }
    assertThat(key.gateClosed()).as("nor does the count gate its calls").isFalse();
  }

  private static final class Fleet implements SharedState, SharedKey {
    final List<String> told = new ArrayList<>();
    int instances = 1;

    @Override public SharedKey join(String key, Ticker ticker, Runnable onNews) { return this; }
    @Override public long take(double cost, double sendRate, int inFlight, long now) { return 0; }
    @Override public long pauseLeft(long now) { return 0; }
    @Override public boolean pauseForRefusal() { return false; }
    @Override public int instances() { return instances; }
    @Override public void paceLearned(double rate, double burst, boolean advertised, long now) {
      told.add("pace " + rate + "/" + burst + (advertised ? " advertised" : " discovered"));
    }
    @Override public void paused(long pauseNanos, boolean refused, long now) {
      told.add("paused " + pauseNanos / MS + " ms" + (refused ? " refused" : ""));
    }
    @Override public void resumed(long now) { told.add("resumed"); }
    @Override public void remaining(long remaining, int inFlight, long now) { told.add("remaining " + remaining); }
    @Override public void leave() {}
  }
}
