package dev.polite.redis;

import static dev.polite.redis.PaceSource.ADVERTISED;
import static dev.polite.redis.PaceSource.DISCOVERED;
import static dev.polite.redis.PaceSource.NONE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.polite.demo.internal.RedisProcess;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The lease script itself, on a real Redis: one decision per run, on Redis's clock. */
class LeaseScriptTest {
  private static final String[] KEYS = {"t:{k}:state", "t:{k}:alive"};
  /** How long a pause stands before one call may re-verify it, in these tests: 200 ms. */
  private static final long PROBE_EVERY = 200_000;

  private RedisProcess redis;
  private RedisClient client;
  private StatefulRedisConnection<String, String> connection;
  private final AtomicLong roundTrips = new AtomicLong();
  private final LeaseScript script = new LeaseScript(roundTrips);

  @BeforeEach
  void start() throws Exception {
    redis = RedisProcess.start();
    client = RedisClient.create(redis.uri());
    connection = client.connect();
  }

  @AfterEach
  void stop() {
    connection.close();
    client.shutdown(0, 1, TimeUnit.SECONDS);
    redis.close();
  }

  /** instance, want, back, rate, burst, src, remaining, inFlight, pause, resume */
  private LeaseAnswer lease(String instance, double want, double back, double rate, double burst,
      PaceSource src, long remaining, int inFlight, long pauseMicros, boolean resume) throws Exception {
    return run(request(instance, want, back, rate, burst, src, remaining, inFlight, pauseMicros,
        resume, false, 10_000_000, false));
  }

  private static LeaseRequest request(String instance, double want, double back, double rate,
      double burst, PaceSource src, long remaining, int inFlight, long pauseMicros, boolean resume,
      boolean refused, long aliveMicros, boolean probe) {
    return request(instance, want, back, rate, burst, src, remaining, inFlight, pauseMicros, resume,
        refused, aliveMicros, probe, false);
  }

  private static LeaseRequest request(String instance, double want, double back, double rate,
      double burst, PaceSource src, long remaining, int inFlight, long pauseMicros, boolean resume,
      boolean refused, long aliveMicros, boolean probe, boolean alone) {
    return new LeaseRequest(instance, want, back, rate, burst, src, remaining, inFlight,
        pauseMicros, resume, 60_000, aliveMicros, 2_000_000, refused, "t:pauses", PROBE_EVERY, probe,
        alone);
  }

  private LeaseAnswer run(LeaseRequest request) throws Exception {
    return script.run(connection.async(), KEYS, request.toArgs()).get(5, TimeUnit.SECONDS);
  }

  private LeaseAnswer ask(String instance, double want) throws Exception {
    return lease(instance, want, 0, -1, -1, NONE, -1, 0, -1, false);
  }

  @Test
  void theScriptReadsEveryArgumentTheRequestSendsAndNoOther() throws Exception {
    String text;
    try (var in = LeaseScript.class.getResourceAsStream("lease.lua")) {
      text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    Set<Integer> read = new TreeSet<>();
    Matcher argv = Pattern.compile("ARGV\\[(\\d+)]").matcher(text);
    while (argv.find()) {
      read.add(Integer.parseInt(argv.group(1)));
    }
    int sent = LeaseRequest.warmUp("a").toArgs().length;
    assertThat(read).containsExactlyElementsOf(
        IntStream.rangeClosed(1, sent).boxed().toList());
  }

  @Test
  void noPaceKnownGrantsFreelyAndRemembersNone() throws Exception {
    LeaseAnswer a = ask("a", 3);
    assertThat(a.granted()).isEqualTo(3);
    assertThat(a.rate()).isZero();
    assertThat(a.pauseMicros()).isZero();
  }

  @Test
  void anAdvertisedPaceStartsAFullBucketThatLendsPastEmptyUpToItsHorizon() throws Exception {
    // 1 a second: the few milliseconds between runs refill next to nothing.
    LeaseAnswer first = lease("a", 4, 0, 1, 10, ADVERTISED, -1, 0, -1, false);
    assertThat(first.granted()).isEqualTo(4);
    assertThat(first.before()).isEqualTo(10, within(0.01));
    assertThat(first.rate()).isEqualTo(1);
    assertThat(first.burst()).isEqualTo(10);
    LeaseAnswer second = ask("b", 10); // b knows no pace: the fleet's is used
    assertThat(second.rate()).isEqualTo(1);
    assertThat(second.before()).isEqualTo(6, within(0.1));
    assertThat(second.granted()).as("6 held, and 2 s of the pace lent past empty").isEqualTo(8);
    LeaseAnswer third = ask("a", 5);
    assertThat(third.before()).isEqualTo(-2, within(0.1));
    assertThat(third.granted()).as("past the horizon, one still keeps its place").isEqualTo(1);
    assertThat(third.alive()).isEqualTo(2);
  }

  @Test
  void unitsGivenBackRefillTheBucketUpToItsBurst() throws Exception {
    lease("a", 8, 0, 1, 10, ADVERTISED, -1, 0, -1, false);
    LeaseAnswer back = lease("a", 0, 5, 1, 10, ADVERTISED, -1, 0, -1, false);
    assertThat(back.before()).isEqualTo(7, within(0.1));
    LeaseAnswer more = lease("a", 0, 50, 1, 10, ADVERTISED, -1, 0, -1, false);
    assertThat(more.before()).isEqualTo(10);
  }

  @Test
  void aDiscoveredPaceIsTheSumOfTheInstancesOwnAndAnAdvertisedOneOutranksIt() throws Exception {
    lease("a", 0, 0, 4, 1, DISCOVERED, -1, 0, -1, false);
    LeaseAnswer discovered = lease("b", 0, 0, 3, 1, DISCOVERED, -1, 0, -1, false);
    assertThat(discovered.rate()).isEqualTo(7); // a's 4/s and b's 3/s
    assertThat(discovered.burst()).isEqualTo(2);
    LeaseAnswer advertised = lease("a", 0, 0, 20, 20, ADVERTISED, -1, 0, -1, false);
    assertThat(advertised.rate()).isEqualTo(20);
    LeaseAnswer ignored = lease("b", 0, 0, 3, 1, DISCOVERED, -1, 0, -1, false);
    assertThat(ignored.rate()).isEqualTo(20);
  }

  @Test
  void aPauseHoldsTheWholeFleetGrantsNothingAndEmptiesTheBucket() throws Exception {
    lease("a", 1, 0, 10, 10, ADVERTISED, -1, 0, -1, false);
    LeaseAnswer paused = lease("a", 0, 0, 10, 10, ADVERTISED, -1, 0, 30_000_000, false);
    assertThat(paused.pauseMicros()).isBetween(29_000_000L, 30_000_000L);
    LeaseAnswer other = ask("b", 5);
    assertThat(other.granted()).isZero();
    assertThat(other.pauseMicros()).isBetween(29_000_000L, 30_000_000L);
    assertThat(other.before()).isLessThan(0.5); // emptied, then refilling at 10/s
    assertThat(other.pauseForRefusal()).as("a spent quota's pause").isFalse();
    run(request("c", 0, 0, -1, -1, NONE, -1, 0, 40_000_000, false, true, 10_000_000, false));
    assertThat(ask("b", 0).pauseForRefusal()).as("lengthened by a refusal").isTrue();
    LeaseAnswer resumed = lease("a", 1, 0, 10, 10, ADVERTISED, -1, 0, -1, true);
    assertThat(resumed.pauseForRefusal()).isFalse();
    assertThat(resumed.pauseMicros()).isZero();
    assertThat(resumed.granted()).isEqualTo(1);
  }

  @Test
  void anInstancePacingAloneEmptiesTheBucketSoTheFleetRejoinsAtItsPaceNotWithABurst() throws Exception {
    LeaseAnswer full = lease("a", 0, 0, 1, 10, ADVERTISED, -1, 0, -1, false);
    assertThat(full.before()).isEqualTo(10, within(0.01));
    // b's Redis did not answer in time: it paces alone, and its units given back are spent too.
    LeaseAnswer alone = run(request("b", 0, 5, -1, -1, NONE, -1, 0, -1, false, false, 10_000_000,
        false, true));
    assertThat(alone.before()).as("what refilled meanwhile, the alone calls had").isLessThan(0.01);
    LeaseAnswer rejoined = ask("b", 10);
    assertThat(rejoined.before()).isLessThan(0.1);
    assertThat(rejoined.granted()).as("2 s of the pace lent past empty, each unit due in turn")
        .isEqualTo(2);
    LeaseAnswer inDebt = run(request("a", 0, 0, -1, -1, NONE, -1, 0, -1, false, false, 10_000_000,
        false, true));
    assertThat(inDebt.before()).as("a debt stays a debt").isEqualTo(-2, within(0.1));
  }

  @Test
  void theServersRemainingCountLessTheFleetsCallsInFlightLowersTheBucket() throws Exception {
    lease("a", 0, 0, 1, 100, ADVERTISED, -1, 3, -1, false); // a has 3 on the wire
    LeaseAnswer b = lease("b", 0, 0, 1, 100, ADVERTISED, 50, 2, -1, false); // b saw 50 left, 2 of its own out
    assertThat(b.before()).isEqualTo(45, within(0.1));
  }

  @Test
  void instancesGoneQuietAreNotCountedAlive() throws Exception {
    run(request("a", 0, 0, -1, -1, NONE, -1, 7, -1, false, false, 200_000, false));
    LeaseAnswer both = run(request("b", 0, 0, -1, -1, NONE, -1, 7, -1, false, false, 200_000, false));
    assertThat(both.alive()).isEqualTo(2);
    // alive means asked within the last microsecond: a's ask is older than that
    LeaseAnswer alone = run(request("b", 0, 0, -1, -1, NONE, -1, 7, -1, false, false, 1, false));
    assertThat(alone.alive()).isEqualTo(1);
    assertThat(connection.sync().hget(KEYS[0], "f:a")).isNull(); // its calls in flight left with it
  }

  @Test
  void everyEntryExpiresAndAFlushedScriptIsSentAgainOnce() throws Exception {
    lease("a", 1, 0, 10, 10, ADVERTISED, -1, 0, -1, false);
    RedisCommands<String, String> sync = connection.sync();
    assertThat(sync.pttl(KEYS[0])).isBetween(1L, 60_000L);
    assertThat(sync.pttl(KEYS[1])).isBetween(1L, 60_000L);
    long before = roundTrips.get();
    sync.scriptFlush();
    assertThat(ask("a", 1).granted()).isEqualTo(1);
    assertThat(roundTrips.get() - before).isEqualTo(2); // EVALSHA refused, then EVAL
    assertThat(ask("a", 1).granted()).isEqualTo(1);
    assertThat(roundTrips.get() - before).isEqualTo(3); // known again
  }

  private LeaseAnswer probe(String instance) throws Exception {
    return run(request(instance, 0, 0, -1, -1, NONE, -1, 0, -1, false, false, 10_000_000, true));
  }

  /** Moves a stored time {@code micros} into the past, as if that long had gone by on Redis. */
  private void backdate(String field, long micros) {
    double at = Double.parseDouble(connection.sync().hget(KEYS[0], field));
    connection.sync().hset(KEYS[0], field, Long.toString((long) at - micros));
  }

  @Test
  void oneInstanceOfTheFleetReVerifiesALongPauseOnceItHasStoodForTheMaxWait() throws Exception {
    run(request("a", 0, 0, -1, -1, NONE, -1, 0, 3_600_000_000L, false, true, 10_000_000, false));
    LeaseAnswer early = probe("b");
    assertThat(early.prober()).as("the pause is younger than the max wait").isFalse();
    assertThat(early.probeWaitMicros()).isBetween(1L, PROBE_EVERY);

    backdate("since", PROBE_EVERY);
    LeaseAnswer b = probe("b");
    assertThat(b.prober()).isTrue();
    assertThat(b.pauseMicros()).as("still paused for the others").isPositive();
    LeaseAnswer c = probe("c");
    assertThat(c.prober()).as("one probe for the fleet").isFalse();
    assertThat(c.probeWaitMicros()).as("until b's turn lapses").isBetween(1L, PROBE_EVERY);
    assertThat(probe("b").prober()).as("b may ask again for its own turn").isTrue();

    LeaseAnswer over = lease("b", 0, 0, -1, -1, NONE, -1, 0, -1, true); // b's probe answered 200
    assertThat(over.pauseMicros()).isZero();
    assertThat(ask("c", 1).pauseMicros()).as("over for every instance").isZero();
  }

  @Test
  void aProbeRefusedRenewsThePauseAndAProberThatNeverAnswersLosesItsTurn() throws Exception {
    run(request("a", 0, 0, -1, -1, NONE, -1, 0, 3_600_000_000L, false, true, 10_000_000, false));
    backdate("since", PROBE_EVERY);
    assertThat(probe("a").prober()).isTrue();
    // a's probe was refused again: the pause is renewed, and stands another max wait
    run(request("a", 0, 0, -1, -1, NONE, -1, 0, 3_600_000_000L, false, true, 10_000_000, false));
    assertThat(probe("b").probeWaitMicros()).isBetween(PROBE_EVERY / 2, PROBE_EVERY);

    backdate("since", PROBE_EVERY);
    assertThat(probe("b").prober()).isTrue();
    backdate("probeUntil", PROBE_EVERY); // b never answered
    assertThat(probe("c").prober()).as("b's turn lapsed").isTrue();
  }

  @Test
  void aPauseIsNeverHeldLongerThanTheDelayItsAnswerNamedFromNow() throws Exception {
    run(request("a", 0, 0, -1, -1, NONE, -1, 0, 30_000_000, false, true, 10_000_000, false));
    // As if Redis's clock stepped back a day: the stored end is a day further off than named.
    backdate("until", -86_400_000_000L);
    assertThat(ask("b", 0).pauseMicros()).isBetween(1L, 30_000_000L);
  }
}
