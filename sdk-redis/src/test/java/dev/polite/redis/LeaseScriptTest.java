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
    return new LeaseRequest(instance, want, back, 0, rate, burst, src, -1, remaining, inFlight,
        pauseMicros, resume, 60_000, aliveMicros, 2_000_000, refused, "t:pauses", PROBE_EVERY, probe,
        alone, false, 0);
  }

  /** An instance that knows no pace asking to send its calls, the discovery lasting {@code forMicros}. */
  private LeaseAnswer discover(String instance, long forMicros) throws Exception {
    return run(new LeaseRequest(instance, 0, 0, 0, -1, -1, NONE, -1, -1, 0, -1, false, 60_000,
        10_000_000, 2_000_000, false, "t:pauses", PROBE_EVERY, false, false, true, forMicros));
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
  void theFirstToAskDiscoversThePaceWhileTheOthersHoldTheirCallsUntilItIsFound() throws Exception {
    RedisCommands<String, String> publisher = connection.sync();
    var listener = client.connectPubSub();
    java.util.concurrent.BlockingQueue<String> heard = new java.util.concurrent.LinkedBlockingQueue<>();
    listener.addListener(new io.lettuce.core.pubsub.RedisPubSubAdapter<>() {
      @Override
      public void message(String channel, String message) {
        heard.add(message);
      }
    });
    listener.sync().subscribe("t:pauses");
    try {
      LeaseAnswer a = discover("a", 2_000_000);
      assertThat(a.discoverWaitMicros()).as("the first: sends").isZero();
      assertThat(a.discoveringMicros()).as("for the fleet").isBetween(1_000_000L, 2_000_000L);
      assertThat(discover("a", 2_000_000).discoverWaitMicros()).as("and goes on sending").isZero();
      LeaseAnswer b = discover("b", 2_000_000);
      assertThat(b.discoverWaitMicros()).as("another: holds").isBetween(1_000_000L, 2_000_000L);
      assertThat(b.discoveringMicros()).isZero();
      assertThat(ask("b", 3).granted()).as("no units while it holds").isZero();
      assertThat(heard).isEmpty();

      lease("a", 0, 0, 4, 1, DISCOVERED, -1, 0, -1, false); // a's refusals taught it 4 a second
      assertThat(heard.poll(5, TimeUnit.SECONDS)).isEqualTo(KEYS[0] + " paced");
      LeaseAnswer after = discover("b", 2_000_000);
      assertThat(after.discoverWaitMicros()).isZero();
      assertThat(after.rate()).isEqualTo(4);
      assertThat(publisher.hget(KEYS[0], "disc")).isEqualTo("a");
    } finally {
      listener.close();
    }
  }

  @Test
  void aDiscoveryThatFoundNoPaceInItsTimeLetsEveryInstanceSend() throws Exception {
    assertThat(discover("a", 1).discoverWaitMicros()).isZero(); // 1 µs: over by the next run
    LeaseAnswer b = discover("b", 2_000_000);
    assertThat(b.discoverWaitMicros()).as("not begun anew").isZero();
    assertThat(b.discoveringMicros()).as("no one discovers: every instance sends on its own").isZero();
    assertThat(ask("b", 3).granted()).isEqualTo(3);
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
  void aRefusalVoidsTheDebtForEveryLeaseIsGivenUp() throws Exception {
    lease("a", 10, 0, 1, 10, ADVERTISED, -1, 0, -1, false); // the bucket's 10
    LeaseAnswer lent = lease("b", 2, 0, 1, 10, ADVERTISED, -1, 0, -1, false);
    assertThat(lent.before()).as("empty: b's 2 fall due 1 and 2 s from now").isLessThan(0.1);
    assertThat(ask("c", 0).before()).as("b's 2 lent").isLessThan(-1.8);
    LeaseAnswer refused = run(request("c", 0, 0, -1, -1, NONE, -1, 0, 1_000_000, false, true,
        10_000_000, false));
    assertThat(refused.pauseForRefusal()).isTrue();
    assertThat(refused.before()).as("every lease given up: nothing is lent").isZero();
  }

  /**
   * What an instance tells with no units asked: the calls it sent, a pause (-1: none) and
   * whether a refusal began it, and the pace it heard from the fleet (-1: none).
   */
  private LeaseAnswer tell(String instance, double sent, long pauseMicros, boolean refused,
      double heard, boolean alone) throws Exception {
    return run(new LeaseRequest(instance, 0, 0, sent, -1, -1, NONE, heard, -1, 0, pauseMicros,
        false, 60_000, 10_000_000, 2_000_000, refused, "t:pauses", PROBE_EVERY, false, alone, false,
        0));
  }

  private double storedDouble(String field) {
    return Double.parseDouble(connection.sync().hget(KEYS[0], field));
  }

  @Test
  void theDiscoverersPaceIsTheFleetsAndAnAdvertisedOneOutranksIt() throws Exception {
    discover("a", 2_000_000);
    LeaseAnswer discovered = lease("a", 0, 0, 18, 1, DISCOVERED, -1, 0, -1, false);
    assertThat(discovered.rate()).isEqualTo(18);
    assertThat(discovered.burst()).as("one call, as one instance's discovered pace holds").isEqualTo(1);
    assertThat(discovered.before()).as("empty: the refusal that found it spent the server's burst")
        .isLessThan(0.1);
    assertThat(storedDouble("lastRefused")).as("the 20 it read, 20 calls: its knee is believed")
        .isEqualTo(20);
    LeaseAnswer another = lease("b", 0, 0, 3, 1, DISCOVERED, -1, 0, -1, false);
    assertThat(another.rate()).as("b's own pace is its view, not the fleet's").isEqualTo(18, within(0.01));
    LeaseAnswer advertised = lease("a", 0, 0, 20, 20, ADVERTISED, -1, 0, -1, false);
    assertThat(advertised.rate()).isEqualTo(20);
    LeaseAnswer ignored = lease("b", 0, 0, 3, 1, DISCOVERED, -1, 0, -1, false);
    assertThat(ignored.rate()).isEqualTo(20);
  }

  @Test
  void withNoDiscovererAloneOnTheServerTheFirstPaceSumsTheMembersPartsFoundWithinASecond() throws Exception {
    assertThat(lease("a", 0, 0, 3, 1, DISCOVERED, -1, 0, -1, false).rate()).isEqualTo(3);
    assertThat(lease("b", 0, 0, 4, 1, DISCOVERED, -1, 0, -1, false).rate()).isEqualTo(7);
    assertThat(lease("b", 0, 0, 5, 1, DISCOVERED, -1, 0, -1, false).rate())
        .as("each member's part once").isEqualTo(7);
    assertThat(storedDouble("lastRefused")).as("no knee believed: the parts were read apart").isEqualTo(-1);
    backdate("summedUntil", 1_100_000);
    assertThat(lease("c", 0, 0, 6, 1, DISCOVERED, -1, 0, -1, false).rate())
        .as("a second later, a member's own pace is its view again").isEqualTo(7);
  }

  @Test
  void forASecondTheDiscoverersCutRaisedByTheAnswersItsRefusalOvertookRaisesTheFirstPace() throws Exception {
    discover("a", 2_000_000);
    lease("a", 0, 0, 16.2, 1, DISCOVERED, -1, 0, -1, false); // 18 read
    assertThat(lease("b", 0, 0, 30, 1, DISCOVERED, -1, 0, -1, false).rate()).as("not another's")
        .isEqualTo(16.2, within(0.01));
    // Three more of its calls were admitted before the refusal, answered after it: 21 read.
    assertThat(lease("a", 0, 0, 18.9, 1, DISCOVERED, -1, 0, -1, false).rate()).isEqualTo(18.9, within(0.01));
    assertThat(storedDouble("lastRefused")).isEqualTo(21, within(0.01));
    backdate("summedUntil", 1_100_000);
    assertThat(lease("a", 0, 0, 25, 1, DISCOVERED, -1, 0, -1, false).rate())
        .as("a second later its pace is its view again").isEqualTo(18.9, within(0.01));
  }

  @Test
  void aDiscovererThatCountedFewerThanTenCallsSetsAPaceButNoKnee() throws Exception {
    discover("a", 2_000_000);
    // 2 calls admitted, then a refusal: a limit others had just spent, say.
    assertThat(lease("a", 0, 0, 1.8, 1, DISCOVERED, -1, 0, -1, false).rate()).isEqualTo(1.8);
    assertThat(storedDouble("lastRefused")).isEqualTo(-1);
  }

  @Test
  void aDiscovererThatSentBesideAMemberPacingAloneFoundAPartOfThePace() throws Exception {
    discover("a", 2_000_000);
    tell("b", 0, -1, false, -1, true); // b's Redis was late: it sent on its own meanwhile
    assertThat(lease("a", 0, 0, 9, 1, DISCOVERED, -1, 0, -1, false).rate()).isEqualTo(9);
    assertThat(lease("b", 0, 0, 6, 1, DISCOVERED, -1, 0, -1, false).rate())
        .as("b's part, found beside it").isEqualTo(15);
  }

  @Test
  void aRefusalCutsToNineTenthsOfWhatTheFleetSpentAtMostOnceASecond() throws Exception {
    discover("a", 2_000_000);
    lease("a", 0, 0, 10, 1, DISCOVERED, -1, 0, -1, false);
    tell("b", 12, -1, false, -1, false); // 12 calls in this span of 2 s: 6 a second
    LeaseAnswer young = tell("c", 0, 500_000, true, -1, false);
    assertThat(young.rate()).as("the pace is younger than a second: the same news").isEqualTo(10, within(0.01));
    backdate("cutAt", 1_100_000);
    LeaseAnswer cut = tell("c", 0, 500_000, true, -1, false);
    assertThat(cut.rate()).as("0.9 of the 6 a second spent, under the pace").isEqualTo(5.4, within(0.01));
    assertThat(storedDouble("lastRefused")).isEqualTo(6, within(0.01));
    LeaseAnswer again = tell("d", 0, 500_000, true, -1, false);
    assertThat(again.rate()).as("the refusals of calls already on the wire: one cut").isEqualTo(5.4, within(0.01));
  }

  @Test
  void quietSecondsClimbOneStepAMemberToTheKneeThenSlowAndNeverPastTwiceWhatWasSpent() throws Exception {
    discover("a", 2_000_000);
    lease("a", 0, 0, 4.5, 1, DISCOVERED, -1, 0, -1, false); // 5 calls read: no knee
    backdate("changed", 5_000_000);
    assertThat(tell("b", 0, -1, false, -1, false).rate())
        .as("nothing spent: no climb, to a pace no call has tested").isEqualTo(4.5, within(0.01));
    tell("b", 100, -1, false, -1, false); // 50 a second sent
    backdate("changed", 1_000_000);
    assertThat(tell("b", 0, -1, false, -1, false).rate())
        .as("no knee yet: 1/s a second for each of the 2 members").isEqualTo(6.5, within(0.01));
    backdate("cutAt", 1_100_000);
    assertThat(tell("c", 0, 1, true, -1, false).rate()).as("a refusal: 0.9 of the 6.5, under the 50 sent")
        .isEqualTo(5.85, within(0.01));
    backdate("changed", 2_000_000);
    // 3 members: 3/s a second to the knee, 0.95 of 6.5, then a percent of 6.5 a second (under 0.3).
    double knee = 0.95 * 6.5;
    double toKnee = (knee - 5.85) / 3;
    assertThat(tell("c", 0, -1, false, -1, false).rate()).isEqualTo(knee + 0.065 * (2 - toKnee), within(0.01));
  }

  @Test
  void aFleetThatLostItsStateGoesOnFromThePaceAMemberHeard() throws Exception {
    LeaseAnswer restored = tell("a", 0, -1, false, 12, false); // Redis restarted empty, say
    assertThat(restored.rate()).isEqualTo(12);
    assertThat(restored.burst()).isEqualTo(1);
    assertThat(storedDouble("lastRefused")).as("a refusal will find the knee again").isEqualTo(-1);
    assertThat(tell("b", 0, -1, false, 30, false).rate()).as("the fleet's own, once it has one")
        .isEqualTo(12, within(0.01));
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
