package dev.polite.redis;

import dev.polite.SharedKey;
import dev.polite.Ticker;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jspecify.annotations.Nullable;

/**
 * One key's share of a {@link RedisSharedState}: the units it has leased ({@link Lease}), what it
 * will tell the fleet with its next request ({@link Outbox}), and what it last heard (the fleet's
 * pace, its pause as a {@link FleetPause}, and whose turn it is to re-verify that pause, a
 * {@link ProbeTurn}). This class decides when to ask; {@link AskAgain} says when to ask again
 * while the key paces alone.
 *
 * <h2>Never waiting under the key's lock</h2>
 * {@link #take} answers from the lease it holds. When the lease cannot cover a call it sends one
 * request in the background and answers {@link #AWAIT}; the answer, or the time-out, runs the
 * key's news callback, and the call's next step finds the new lease (or the key pacing alone).
 * Where the fleet sends at its pace, the next lease is asked for before this one runs out, and
 * calls do not wait for Redis at all ({@link Leases}).
 * Only one request per key is in flight; whatever this instance has to tell the fleet meanwhile
 * (units to give back, a pause, the server's remaining count) waits in its outbox and rides on
 * the next one.
 *
 * <h2>A fleet that knows no pace</h2>
 * Where the server advertises none, the fleet discovers its pace as one instance would: the first
 * instance to ask sends alone, for at most a quarter of leaseFor ({@link #DISCOVER_FOR}), and tells
 * the sdk it is one instance ({@link #instances}), so its controller reads what it was admitted as
 * the fleet's; the others hold their calls until the pace is published ({@link #heardPaced}) or
 * that time is over. Started together and each sending its first calls on its own, a fleet of P
 * instances met the limit with P windows of calls before any refusal was heard. From then on the
 * script cuts and climbs the fleet's pace as one ({@code lease.lua}), from what the members say
 * they sent ({@link Outbox#sent}); an instance's own controller only tells it of its refusals.
 *
 * <h2>Pacing alone</h2>
 * While its {@link RedisSharedState} cannot reach Redis, the key paces on a
 * {@link FallbackBucket} at its share of the fleet's last known pace and burst (bounded by the
 * pace its own refusals found, where the pace is discovered: {@link #alone}), and asks again
 * (for no units) as {@link AskAgain} says, until the state has had enough answers in time in a
 * row to rejoin the fleet. Units an answer grants after its time-out are given back.
 *
 * <p>Thread-safe: guarded by its own lock, which is never held while the key's callback runs.
 */
final class RedisSharedKey implements SharedKey {
  private static final long NONE = -1;
  private static final long[] NO_WAITS = {};
  private static final long RECHECK_NANOS = 1_000_000L;
  /**
   * How many batches' time ahead the fleet's bucket lends, in leaseFor: enough for every
   * instance of a busy fleet to hold its batch while the one before it spends (8 instances with
   * 4 callers each have 8 × 4 = 32 calls waiting, 32 / 20 = 1.6 s of a 20/s pace, well inside
   * the 4 × 2 s = 8 s lent at the default leaseFor), few enough that a pace cut leaves no long
   * debt (at most 4 × leaseFor of the old pace).
   */
  private static final long LEND_AHEAD = 4;
  /**
   * How long, in leaseFor, one instance may discover the pace for a fleet that knows none while
   * the others hold their calls (lease.lua). A quarter (0.5 s at the default leaseFor) is many
   * round trips: an instance of 4 callers meets a limit of 20 a second, burst 20, within about
   * seven of them (its window doubling from one call in flight). And it is the most a held call
   * waits against a server that turns out to have no limit at all, once per key per fleet start.
   */
  private static final long DISCOVER_FOR = 4;
  /**
   * How many timeouts a request may take while no call waits for it: a lease asked for ahead, news
   * told. On a loaded machine answers come late now and then (17 JVMs on 2 cores answered in 20 to
   * 70 ms at the 99th percentile, past the 20 ms default); such a request is not late to anyone,
   * and timed out, it would send every key of its node to pace alone. Ten times 20 ms is about
   * as long as the rest of a lease lasts once the next is asked for (100 to 250 ms: {@link Leases});
   * past that, calls wait, and timeout bounds their wait, or as much more as they would wait
   * anyway ({@link #callTimeoutNanos}).
   */
  private static final long QUIET_TIMEOUTS = 10;

  private final Fleet fleet;
  private final SharedSettings settings;
  private final String[] keys;
  /** The name this key asks under: several interceptors on one state are members of their own. */
  private final Member member;
  private final Ticker ticker;
  private final Runnable onNews;

  /** Read on every step, without the lock; written only by {@link #hold}. */
  private volatile FleetPause pause = FleetPause.NONE;

  // guarded by this
  private final Leases leases = new Leases();
  /** Until when this key holds its calls while another instance discovers the pace; MIN_VALUE: not. */
  private long heldForDiscoveryUntil = Long.MIN_VALUE;
  /** Whether a discovery held this key's calls and no lease has been granted since. */
  private boolean heldCalls;
  /** Until when this key discovers the pace for the fleet, sending alone; MIN_VALUE: it does not. */
  private long discoveringUntil = Long.MIN_VALUE;
  private @Nullable Ask asking;
  private long lastAskAt = Long.MIN_VALUE;
  private long lastHeardAt = Long.MIN_VALUE;
  /**
   * How long after the last grant came its first unit fell due: how far ahead of its calls the
   * fleet's schedule ran (0: the bucket held units). 0 again after a refusal (the script voids the
   * fleet's debt) and while pacing alone.
   */
  private long scheduleDepth;
  /** Whether Redis has granted this key units yet: until then, it is starting (callTimeoutNanos). */
  private boolean everLeased;
  private final Outbox outbox = new Outbox();
  private double myRate = NONE;
  private double myBurst = NONE;
  private PaceSource mySource = PaceSource.NONE;
  private int inFlight;
  private double fleetRate;
  private double fleetBurst;
  private int alive = 1;
  private final FallbackBucket fallback = new FallbackBucket();
  private final AskAgain askAgain;
  private final ProbeTurn probeTurn = new ProbeTurn();

  RedisSharedKey(Fleet fleet, String[] keys, Member member,
      Ticker ticker, Runnable onNews) {
    this.fleet = fleet;
    this.settings = fleet.settings();
    this.keys = keys;
    this.member = member;
    this.ticker = ticker;
    this.onNews = onNews;
    this.askAgain = new AskAgain(settings.retryEveryNanos());
  }

  @Override
  public synchronized long take(double cost, double sendRate, int inFlight, long now) {
    this.inFlight = inFlight;
    long wait = decide(cost, sendRate, inFlight, now);
    if (wait == 0 || wait == AWAIT) {
      // An answer can come back before its handler is even attached (a busy machine), and is then
      // read right here: one that says the fleet is paused holds this call back too.
      long held = pauseLeft(now);
      if (held > 0) {
        return held;
      }
    }
    if (wait == AWAIT && asking == null && !heldForDiscovery(now)) {
      return RECHECK_NANOS; // answered at once, yet nothing to spend: no signal will come, look again
    }
    if (wait == AWAIT && asking != null) {
      asking.callWaits(now);
    }
    if (wait == 0) {
      outbox.sent(cost); // what the fleet sent, told with the next request (lease.lua's spent)
    }
    return wait;
  }

  private long decide(double cost, double sendRate, int inFlight, long now) {
    if (pacingAlone()) {
      if (asking == null && since(lastAskAt, now) >= askAgain.delay()) {
        // Asks for no units: the answer tells whether Redis is back in time (and the news), and
        // the fleet's schedule holds no batch for a key that goes on pacing alone meanwhile.
        askAgain.callAsks();
        ask(0, now);
      }
      if (pacingAlone()) {
        return alone(cost, now);
      }
    }
    if (fleetRate <= 0 && mySource == PaceSource.NONE) {
      // No pace anywhere in the fleet: calls go, but not on news older than leaseFor (a pause
      // another instance met, a pace it learned): one call a leaseFor waits for a refresh. The
      // first to ask discovers the pace for the fleet (lease.lua); the others hold their calls
      // until it has, or its time is over, and then ask again.
      boolean holdOver = heldForDiscoveryUntil != Long.MIN_VALUE && now >= heldForDiscoveryUntil;
      if (asking == null && (holdOver || since(lastHeardAt, now) >= settings.leaseForNanos())) {
        // Counted as on the wire already: this call goes next, and a server's remaining count
        // read by another instance meanwhile will not include it.
        this.inFlight = inFlight + 1;
        heldForDiscoveryUntil = Long.MIN_VALUE;
        ask(0, false, true, now);
      }
      if (pacingAlone()) {
        return 0;
      }
      return asking != null || heldForDiscovery(now) ? AWAIT : 0;
    }
    outbox.giveBack(leases.expire(now, settings.validityNanos()));
    outbox.giveBack(leases.turnOver(cost));
    if (!leases.covers(cost) && cost > mostLent()) {
      // No lease can ever cover this call: asking again would be answered the same, round trip
      // after round trip until the call's max wait. Refused at once, on what the fleet said
      // within leaseFor; older news is refreshed first (for no units: the pace may have grown).
      if (since(lastHeardAt, now) < settings.leaseForNanos()) {
        return SharedKey.NEVER; // no lease can ever cover it: the sdk refuses the call at once
      }
      if (asking == null) {
        ask(0, now);
      }
      return pacingAlone() ? alone(cost, now) : AWAIT;
    }
    if (!leases.covers(cost) && asking == null) {
      double want = want(cost, sendRate, now);
      outbox.giveBack(leases.surrender());
      ask(want, now); // may be answered at once: the lease is read after it
    }
    if (pacingAlone()) {
      return alone(cost, now); // the request failed at once: no connection
    }
    if (leases.covers(cost)) {
      long due = leases.dueOf(cost);
      if (due > now) {
        return due - now;
      }
      long held = pauseLeft(now); // heard in the lease's own answer, or published meanwhile
      if (held > 0) {
        return held; // the call is held back, so its units stay the lease's, to spend after
      }
      if (leases.spend(cost, due, unitNanos(), settings.validityNanos(), now) && asking == null) {
        ask(want(cost, sendRate, true), now); // ahead, so that no call waits for it (Leases)
      }
      return 0;
    }
    return AWAIT;
  }


  /**
   * The most units one lease can hold, as the script grants them ({@code lease.lua}): the bucket
   * full, plus what it lends past empty ({@link #LEND_AHEAD} batches' time of the pace), and
   * always one. Infinite while the fleet knows no pace.
   */
  private double mostLent() {
    if (fleetRate <= 0 || fleetBurst <= 0) {
      return Double.POSITIVE_INFINITY;
    }
    double aheadMicros = aheadMicros(); // as the script reads it: rate * ahead / 1e6
    return Math.max(1, Math.floor(fleetBurst + fleetRate * aheadMicros / 1_000_000));
  }

  /** One unit of the fleet's pace, in nanoseconds (0 while it knows none). */
  private long unitNanos() {
    return fleetRate > 0 ? (long) Math.min(1e9 / fleetRate, Long.MAX_VALUE / 2.0) : 0;
  }

  /** How long one instance discovers the pace while the others hold their calls. */
  private long discoverForMicros() {
    return settings.leaseForNanos() / 1000 / DISCOVER_FOR;
  }

  /** How far past empty the fleet's bucket lends, in microseconds of its pace. */
  private long aheadMicros() {
    return settings.leaseForNanos() / 1000 * LEND_AHEAD;
  }

  /**
   * A batch ({@link Batch}), on what the fleet said last; asked for before the lease in hand is
   * given up, which tells whether this instance is busy: its calls spent that lease whole, the
   * last unit within {@code validity}, or a discovery held them (they all wait to go, while its
   * send rate, having sent nothing, reads none). Asked for ahead, the batch is a busy instance's
   * (its calls came before their units: {@link Leases#spend}).
   */
  private double want(double cost, double sendRate, long now) {
    return want(cost, sendRate, heldCalls || leases.spentWholeWithin(settings.validityNanos(), now));
  }

  private double want(double cost, double sendRate, boolean busy) {
    return Batch.of(cost, sendRate, busy, fleetRate, alive, settings.leaseForNanos(),
        aheadMicros() * 1000);
  }

  /**
   * Whether this key holds its calls while another instance discovers the fleet's pace: a
   * wake-up at the hold's end, or the news that a pace was found ({@link #heardPaced}), signals
   * them.
   */
  private boolean heldForDiscovery(long now) {
    return heldForDiscoveryUntil != Long.MIN_VALUE && now < heldForDiscoveryUntil
        && fleetRate <= 0 && mySource == PaceSource.NONE; // a pace known ends any discovery
  }

  /**
   * This key's share of the fleet's pace, while Redis is away. Where the pace is discovered, this
   * instance's own controller goes on reading its refusals meanwhile, and its pace (found on its
   * own calls) bounds the share: otherwise an outage would hold the members at the fleet's last
   * pace whatever the server refuses, since the key's own bucket does not pace in a fleet
   * (KeyModel). While the fleet's pace is unknown here, its own is all there is.
   */
  private long alone(double cost, long now) {
    boolean ownPace = mySource == PaceSource.DISCOVERED;
    if (fleetRate <= 0) {
      return fallback.take(cost, ownPace ? myRate : 0, 1, now);
    }
    double share = fleetRate / alive;
    return fallback.take(cost, ownPace ? Math.min(share, myRate) : share, fleetBurst / alive, now);
  }

  @Override
  public long pauseLeft(long now) {
    return pause.left(now);
  }

  /**
   * The fleet's pause has stood as long as a call may wait, and this instance's call would
   * re-verify it: the script lets one instance of the fleet do so at a time ({@code lease.lua}).
   * While Redis is out of reach, the instance re-verifies on its own, as it would alone.
   */
  @Override
  public synchronized long probe(double cost, long everyNanos, long now) {
    long held = pauseLeft(now);
    if (held == 0 || pacingAlone()) {
      return 0;
    }
    probeTurn.every(everyNanos);
    if (probeTurn.mayAsk(now) && asking == null) {
      ask(0, true, false, now); // may be answered at once: read below
    }
    if (probeTurn.takeGrant(now)) {
      return 0;
    }
    if (probeTurn.waiting(now)) {
      return held; // another instance probes, or the pause is young: fail fast (ProbeTurn)
    }
    if (asking == null) {
      return held;
    }
    asking.callWaits(now);
    return AWAIT;
  }

  /** The fleet's instances; 1 while this one discovers the fleet's pace and the others hold. */
  @Override
  public synchronized int instances() {
    return discovering(ticker.read()) ? 1 : alive;
  }

  private boolean discovering(long now) {
    return discoveringUntil != Long.MIN_VALUE && now < discoveringUntil
        && fleetRate <= 0 && mySource == PaceSource.NONE; // a pace known ends any discovery
  }

  @Override
  public boolean pauseForRefusal() {
    return pause.forRefusal();
  }

  @Override
  public synchronized void paceLearned(double rate, double burst, boolean advertised, long now) {
    if (Double.isInfinite(rate) || rate <= 0) {
      myRate = NONE;
      myBurst = NONE;
      mySource = PaceSource.NONE;
      return;
    }
    myRate = rate;
    myBurst = burst;
    mySource = advertised ? PaceSource.ADVERTISED : PaceSource.DISCOVERED;
    if (advertised ? fleetRate <= 0 : pauseLeft(now) > 0) {
      askSoon(now); // the fleet learns it now, and this key starts leasing
    }
    // A discovered pace is told at once only under a pause: the pause that follows its cut
    // (KeyModel tells both from one answer) or one already told, so that nobody leases at it
    // into the server that just refused. Then the discoverer's cut, raised by the answers its
    // refusal overtook, reaches the script while it still revises the first pace (lease.lua).
    // Otherwise it rides with the next call's request.
  }

  @Override
  public synchronized void paused(long pauseNanos, boolean refused, long now) {
    long micros = FleetPause.cut(pauseNanos / 1000);
    FleetPause longer = pause.heldFor(now, micros);
    if (!longer.outlasts(pause)) {
      return; // the fleet said as much already
    }
    hold(longer);
    probeTurn.waitOver(); // new evidence: the script says when it may be re-verified
    outbox.paused(FleetPause.after(now, micros), refused);
    if (refused) {
      voidLease();
    }
    // Told now, a spent quota too: the next call would come only once the pause is over, and
    // the other instances would go on sending into the spent quota until then.
    askSoon(now);
  }

  @Override
  public synchronized void resumed(long now) {
    outbox.resumed();
    hold(pause.over());
    probeTurn.over();
    askSoon(now);
  }

  @Override
  public synchronized void remaining(long remaining, int inFlight, long now) {
    outbox.remaining(remaining);
    this.inFlight = inFlight;
  }

  /** Its seat among this state's keys of one name. */
  int seat() {
    return member.seat();
  }

  /** Whether a request of this key's is out. */
  synchronized boolean asking() {
    return asking != null;
  }

  /** The units this instance's leases hold now. */
  synchronized double leaseLeft() {
    return leases.left();
  }

  /**
   * A pause the fleet published as it began ({@code micros} left; 0 when a probe ended it): held
   * from now, and, for a refusal, the lease given back, as when an answer carries it.
   */
  void heardPause(long micros, boolean refused) {
    synchronized (this) {
      if (micros == 0) {
        hold(pause.over());
        probeTurn.waitOver();
      } else {
        FleetPause heard = FleetPause.of(ticker.read(), micros, refused);
        if (!heard.outlasts(pause)) {
          return;
        }
        hold(heard);
        if (refused) {
          voidLease();
        }
      }
    }
    onNews.run();
  }

  /**
   * Holds this key's calls for {@code micros} from {@code now} while another instance discovers
   * the pace (none: sends), and wakes them when the hold is over: they then ask again.
   */
  private void holdForDiscovery(long micros, long now) {
    if (micros <= 0) {
      heldForDiscoveryUntil = Long.MIN_VALUE;
      return;
    }
    long nanos = Math.min(micros, discoverForMicros()) * 1000; // a bound, whatever Redis says
    heldForDiscoveryUntil = now + nanos;
    heldCalls = true;
    CompletableFuture.delayedExecutor(nanos, TimeUnit.NANOSECONDS).execute(onNews);
  }

  /** The fleet's discovery found a pace: the calls it held ask again now. */
  void heardPaced() {
    synchronized (this) {
      if (heldForDiscoveryUntil == Long.MIN_VALUE) {
        return;
      }
      heldForDiscoveryUntil = ticker.read(); // over: the next step asks
    }
    onNews.run();
  }

  @Override
  public synchronized void leave() {
    fleet.left(keys[0], this);
    outbox.giveBack(leases.surrender());
    if (outbox.givesBack()) {
      askSoon(ticker.read());
    }
  }

  /**
   * Drops the lease: it was leased at a pace the server just refused. Its units are not given
   * back: the script voided every lease of the fleet with the refusal ({@code lease.lua}), so
   * their places in the schedule are free already. Given back as well, they would refill the
   * bucket once more for each instance, and every instance would be granted a unit due at once:
   * a burst at the pause's end.
   */
  private void voidLease() {
    leases.surrender();
    scheduleDepth = 0; // the script voided the fleet's debt with it
  }

  /** Sends what this key has to tell now, or with the request already in flight. */
  private void askSoon(long now) {
    if (asking == null) { // falling back too: if Redis was only slow, the fleet still hears
      ask(0, now);
    }
  }

  private void ask(double want, long now) {
    ask(want, false, false, now);
  }

  /**
   * @param probe whether to ask to be the instance that re-verifies the fleet's pause
   * @param discover whether this key, knowing no pace, asks to send its calls (lease.lua)
   */
  private void ask(double want, boolean probe, boolean discover, long now) {
    lastAskAt = now;
    Outbox.News news = outbox.take(now);
    double heard = fleetRate > 0 && mySource != PaceSource.ADVERTISED ? fleetRate : NONE;
    LeaseRequest request = new LeaseRequest(member.id(), want, news.back(), news.sent(), myRate,
        myBurst, mySource, heard, news.remaining(), inFlight, news.pauseMicros(), news.resume(),
        settings.idleExpiryMillis(), settings.aliveWindowMicros(), aheadMicros(), news.refused(),
        fleet.pauseChannel(), probeTurn.everyMicros(), probe, pacingAlone(), discover,
        discoverForMicros());
    String node = fleet.nodeOf(keys[0]);
    CompletableFuture<LeaseAnswer> answer = fleet.lease(keys, request.toArgs());
    Ask ask = new Ask(news, node, discover, answer.copy(), callTimeoutNanos(want, probe, discover),
        fleet.timesWaits());
    asking = ask;
    ask.neverSent = answer.isCompletedExceptionally(); // refused before it left: no connection
    // A late answer's units are this instance's, though it stopped waiting: they go back.
    answer.thenAccept(a -> late(ask, a));
    // Late is as a call meets it: timeout from the first call that waits for the answer. One that
    // no call waits for yet (a lease asked for ahead, news told) may take QUIET_TIMEOUTS of it. A
    // key pacing alone asks whether Redis answers in time again: timeout it is.
    long lateAt = pacingAlone() ? settings.timeoutNanos() : QUIET_TIMEOUTS * settings.timeoutNanos();
    ask.deadline.orTimeout(lateAt, TimeUnit.NANOSECONDS)
        .whenComplete((a, failure) -> finish(ask, a, failure));
  }

  /**
   * How long a call may wait for this key's request: the timeout, but longer, up to
   * {@link #QUIET_TIMEOUTS} of it, where the call would wait that long for other reasons anyway:
   * <ul>
   *   <li>The key's requests until its first lease, and while the fleet knows no pace. These come
   *       as a fleet starts, all its instances together: the first call of each; as the
   *       discovering instance finds the pace, every held instance's calls at once; then every
   *       instance's first lease (16 JVMs on 2 cores answered them in 8 to 80 ms). Timed out at
   *       20 ms, they sent half of such a fleet alone at its start, each instance then needing
   *       {@link AskAgain#REJOIN_AFTER} answers in time in a row to come back. At the
   *       defaults ten timeouts is 200 ms, less than the 500 ms that a discovery may hold calls
   *       for anyway ({@link #DISCOVER_FOR}). Against a server with no limit at all, where no
   *       pace is ever found, that is one call every leaseFor (the refresh) that may wait 200 ms
   *       on a slow Redis.
   *   <li>A lease where the fleet's schedule runs ahead of its calls: the last grant's first unit
   *       fell due {@link #scheduleDepth} after it came, and the next grant's will fall due as far
   *       ahead, set by the units lent before it, however soon the answer comes. An answer within
   *       that time holds no call back (the fleet counts no such wait: {@link Ask#waitsOver}); one
   *       timed out at 20 ms sent busy instances alone while their calls queued seconds for units.
   * </ul>
   * A key pacing alone asks whether Redis answers in time again, and a probe re-verifies a pause:
   * timeout it is.
   */
  private long callTimeoutNanos(double want, boolean probe, boolean discover) {
    long timeout = settings.timeoutNanos();
    if (pacingAlone()) {
      return timeout;
    }
    long quiet = QUIET_TIMEOUTS * timeout;
    if (!everLeased || discover) {
      return quiet;
    }
    return want > 0 && !probe ? Math.max(timeout, Math.min(quiet, scheduleDepth)) : timeout;
  }

  private void finish(Ask ask, @Nullable LeaseAnswer answer, @Nullable Throwable failure) {
    long[] waited = NO_WAITS;
    synchronized (this) {
      if (asking == ask) {
        asking = null;
      }
      if (failure != null) {
        waited = ask.waitsOver(ticker.read());
        Throwable cause = failure.getCause() != null ? failure.getCause() : failure;
        ask.timedOut = cause instanceof TimeoutException;
        if (ask.neverSent) {
          outbox.unsent(ask.news); // never reached Redis: tell it next time
        }
        fleet.unreachable(ask.node, cause);
        askAgain.failed();
        outbox.giveBack(leases.surrender()); // what the fleet decides meanwhile is unknown here
        scheduleDepth = 0;
        if (outbox.holdsPauseNews()) {
          tellLater(); // no call may come to carry it: this instance may have given up
        }
      } else if (answer != null) {
        fleet.reached(ask.node);
        askAgain.answered();
        lastHeardAt = ticker.read();
        install(answer, lastHeardAt);
        if (answer.granted() == 0 || scheduleDepth == 0) {
          waited = ask.waitsOver(lastHeardAt); // else each call waits on for its unit (Ask#waitsOver)
        }
        if (ask.discover) {
          holdForDiscovery(answer.discoverWaitMicros(), lastHeardAt);
          discoveringUntil = answer.discoveringMicros() > 0
              ? lastHeardAt + Math.min(answer.discoveringMicros(), discoverForMicros()) * 1000
              : Long.MIN_VALUE;
        }
        if (outbox.holdsPauseNews()) {
          ask(0, ticker.read()); // news that came while this request was out
        } else if (pacingAlone() && askAgain.confirmsAgain()) {
          ask(0, ticker.read()); // in time, but not yet enough in a row to rejoin (AskAgain)
        }
      }
    }
    fleet.callsWaited(waited);
    if (!Thread.holdsLock(this)) { // not from inside take(), which reads the outcome itself
      onNews.run();
    }
  }

  /** Tries again to tell the fleet a pause or its end, after the retry delay, off any caller's thread. */
  private void tellLater() {
    CompletableFuture.delayedExecutor(askAgain.delay(), TimeUnit.NANOSECONDS).execute(() -> {
      synchronized (this) {
        if (asking == null && !fleet.isClosed() && (outbox.holdsPauseNews())) {
          ask(0, ticker.read());
        }
      }
    });
  }

  /**
   * An answer after its time-out: its units go back with the next request. It does not bring the
   * key back to the fleet, nor ask again sooner: only answers in time do (Redis is slow, and the
   * next request would very likely be late too).
   */
  private void late(Ask ask, LeaseAnswer answer) {
    synchronized (this) {
      if (ask.timedOut) {
        outbox.giveBack(answer.granted());
      }
    }
  }

  private void install(LeaseAnswer answer, long receivedAt) {
    fleetRate = answer.rate();
    fleetBurst = answer.burst();
    alive = answer.alive();
    if (answer.pauseMicros() > 0) {
      if (answer.pauseForRefusal()) {
        voidLease();
      }
      // A spent quota keeps the lease: it is the ordinary rhythm of a fleet at its pace (the
      // server's count reaches 0 with a reset of one token's time, again and again). Giving every
      // instance's lease back at each one would send all of them to Redis at its end, again and
      // again, and a lease would no longer cover a batch of calls. The pause holds the units until
      // it ends; those it outlasts by more than the validity go back as usual (FleetPauseLeaseTest).
      hold(FleetPause.of(receivedAt, answer.pauseMicros(), answer.pauseForRefusal()));
      if (answer.prober()) {
        probeTurn.granted(receivedAt);
      } else if (answer.probeWaitMicros() > 0) {
        probeTurn.waitFor(receivedAt, answer.probeWaitMicros());
      }
    } else {
      hold(pause.over());
    }
    if (answer.granted() > 0) {
      heldCalls = false;
      Lease lease = new Lease(receivedAt, answer.before(), fleetRate, answer.granted());
      scheduleDepth = lease.firstDueAfter();
      everLeased = true;
      outbox.giveBack(leases.add(lease));
    }
  }

  /**
   * The one writer of the key's pause. Its callers decide what is news: this instance's own pause
   * and one published by the fleet only ever lengthen it; the fleet's answer, or a probe's end,
   * sets it.
   */
  private void hold(FleetPause next) {
    pause = next;
  }

  /** Whether this key paces alone now: its Redis node did not answer in time. */
  private boolean pacingAlone() {
    return fleet.isFallingBack(keys[0]);
  }

  /** Nanoseconds from {@code then} (or forever, if never) to {@code now}. */
  private static long since(long then, long now) {
    return then == Long.MIN_VALUE ? Long.MAX_VALUE : now - then;
  }

  @Override
  public synchronized String toString() {
    return "RedisSharedKey{" + keys[0] + " " + leases + " fleetRate=" + fleetRate + " alive=" + alive
        + (asking != null ? " asking" : "") + '}';
  }

  /** One request in flight, and what it carried, in case it never left. */
  private static final class Ask {
    final Outbox.News news;
    /** The node it went to: its outcome tells about that node only. */
    final String node;
    /** Whether it asked to send calls while no pace is known: its answer may hold them. */
    final boolean discover;
    volatile boolean timedOut;
    boolean neverSent;
    /** The answer as this key waits for it: completed by the answer, or exceptionally when late. */
    final CompletableFuture<LeaseAnswer> deadline;
    /** How long after a call begins to wait for the answer it is late. */
    private final long timeoutNanos;
    /** Whether a call waits for the answer, so that it is late timeout after that call began. */
    private boolean callWaiting;
    /** When each call that waits for this answer began to, if anyone listens. Guarded by the key. */
    private long @Nullable [] waitingSince;
    private int waiting;

    Ask(Outbox.News news, String node, boolean discover, CompletableFuture<LeaseAnswer> deadline,
        long timeoutNanos, boolean timesWaits) {
      this.news = news;
      this.node = node;
      this.discover = discover;
      this.deadline = deadline;
      this.timeoutNanos = timeoutNanos;
      this.waitingSince = timesWaits ? new long[4] : null;
    }

    /**
     * A call waits for this answer from {@code now}. A call steps again on each signal of its
     * key; if other news (a pause published) wakes it before the answer, it is counted twice,
     * once with a shorter wait: what the listener hears errs towards more waiting, never less.
     */
    void callWaits(long now) {
      if (!callWaiting) {
        callWaiting = true;
        CompletableFuture.delayedExecutor(timeoutNanos, TimeUnit.NANOSECONDS)
            .execute(() -> deadline.completeExceptionally(new TimeoutException()));
      }
      long[] since = waitingSince;
      if (since == null) {
        return;
      }
      if (waiting == since.length) {
        since = waitingSince = Arrays.copyOf(since, since.length * 2);
      }
      since[waiting++] = now;
    }

    /**
     * How long each call waited, up to the answer or time-out at {@code now}; empty if none. An
     * answer whose units fall due after it came ({@link Lease#firstDueAfter}) held no call back,
     * and its key tells none of these: where the fleet's bucket lends past empty, a
     * unit's place in the schedule is set by the units lent before it, whenever it is asked for,
     * and each call waits on for its unit. Asking sooner would have given this instance earlier
     * units and the other instances later ones.
     */
    long[] waitsOver(long now) {
      long[] since = waitingSince;
      long[] waited = new long[since == null ? 0 : waiting];
      for (int i = 0; i < waited.length; i++) {
        waited[i] = Math.max(0, now - since[i]);
      }
      waiting = 0;
      return waited;
    }
  }
}
