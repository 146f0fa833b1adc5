package dev.polite.internal.headers;

import static org.assertj.core.api.Assertions.assertThat;

import dev.polite.Polite;
import dev.polite.PoliteConfig;
import dev.polite.RateLimitSignals;
import dev.polite.Sleeper;
import dev.polite.internal.model.KeyModel;
import dev.polite.internal.model.Permit;
import java.time.Duration;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The key's half of "no single header value stops a key": one answer carrying a real header set
 * with one value made hostile (the same mutations as {@link HostileValuesPropertiesTest}) is
 * taught to a real {@link KeyModel}, and whatever it said, the key lets a call go again: no
 * pause reads longer than the max wait, and once it has passed the gate is open and a new call's
 * tokens are due within a wait it may take (a pause or a pace no call can wait out is
 * re-verified by one probe). So a garbage reset of a year, a Retry-After of a day or a window of
 * a year costs a probe interval, never the year.
 */
class KeyPauseBoundPropertiesTest {
  private static final SignalsReader PARSER = SignalsReader.standard();
  private static final long MS = 1_000_000L;
  private static final long MAX_WAIT = 60_000 * MS;
  private static final PoliteConfig CONFIG = Polite.builder()
      .clock(() -> 0L, Sleeper.system()).maxWait(Duration.ofNanos(MAX_WAIT)).build().config();
  private static final long T0 = 1_000_000_000_000L;

  private final HostileValuesPropertiesTest hostile = new HostileValuesPropertiesTest();

  @Property(tries = 10_000)
  void oneHostileAnswerCostsTheKeyAtMostOneProbeInterval(@ForAll("sets") String[] set,
      @ForAll("lineIndex") int line, @ForAll("mode") int mode, @ForAll("hostile") String value,
      @ForAll("statuses") int status) {
    String[] mutated = HostileValuesPropertiesTest.mutate(set, line % (set.length / 2), mode, value);
    RateLimitSignals signals = PARSER.parse(status, Responses.headers(mutated), Responses.NOW);
    KeyModel key = new KeyModel("k", CONFIG, T0);
    Permit sent = key.grant(T0, key.reserve(1, T0));
    long now = T0 + MS;
    key.onAnswer(status, signals, sent, now);

    assertThat(key.pauseLeft(now)).as("%s", signals).isLessThanOrEqualTo(MAX_WAIT);
    long later = now + MAX_WAIT;
    assertThat(key.pauseLeft(later)).as("%s", signals).isZero();
    assertThat(key.gateClosed()).as("%s", signals).isFalse();
    assertThat(key.reserve(1, later).waitNanos()).as("a wait a call may take: %s", signals)
        .isLessThanOrEqualTo(MAX_WAIT);
  }

  @Provide
  Arbitrary<String[]> sets() {
    return hostile.sets();
  }

  @Provide
  Arbitrary<Integer> lineIndex() {
    return hostile.lineIndex();
  }

  @Provide
  Arbitrary<Integer> mode() {
    return hostile.mode();
  }

  @Provide
  Arbitrary<Integer> statuses() {
    return hostile.statuses();
  }

  @Provide
  Arbitrary<String> hostile() {
    return hostile.hostile();
  }
}
