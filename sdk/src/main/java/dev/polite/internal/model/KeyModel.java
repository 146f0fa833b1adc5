package dev.polite.internal.model;

import dev.polite.KeySnapshot;
import dev.polite.PoliteConfig;
import dev.polite.PoliteListener;
import dev.polite.RateController;
import dev.polite.RateLimitSignals;
import dev.polite.SharedKey;
import dev.polite.SharedState;
import dev.polite.TokenBucket;
import dev.polite.internal.Nanos;
import java.time.Duration;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What polite knows about one rate-limit key, what it allows now, and what an answer teaches
 * it: thread-free and driven by the clock readings passed in, so that a simulation with many
 * virtual callers runs the very code users run. {@link dev.polite.internal.call.KeyState} is the
 * thin concurrent shell (lock, waiting) around it.
 *
 * <h2>What it tracks</h2>
 * <ul>
 *   <li>a {@link TokenBucket}: unlimited until something sets a pace; then the pace the server
 *       advertises ({@link AdvertisedPace}: {@code quota / window}, the window inferred from
 *       resets where none is named); or, where it advertises none, the pace the key finds
 *       ({@link DiscoveredPace}) with a burst of one, and once what its server showed it banks
 *       (in a fleet that pace is told to the fleet, whose leases pace the key instead);
 *       or, where a silent server showed a window (a burst taken whole, a shut, a reopening), that
 *       window's calls in bursts ({@link DiscoveredWindow}), until a refusal under it;
 *   <li>where the server keeps a count it never says when it refills (no reset, no window), that
 *       count as a budget the calls spend past the pace, and a pause for the refill when it is
 *       spent ({@link CountedBudget});
 *   <li>a {@link KeyPause}: every call holds back for a Retry-After, the reset of a spent quota,
 *       or a backoff after a bare refusal; a pause no call can wait out is re-verified by one
 *       probe after the max wait (the shell fails every other call at once meanwhile). Likewise a
 *       pace no call can wait for (one a year, from a garbage window): when nothing has gone for
 *       the max wait, one call goes;
 *   <li>its calls in a {@link CallLedger}, so that the server's remaining count can be read
 *       against the calls it has not seen yet ({@link ServerCount});
 *   <li>the gate, how many calls may be in flight: an {@link InFlightWindow} (slow start until
 *       the server shows a cap on calls in flight, then that cap, re-verified), or one while
 *       probing after a refusal or re-verifying a long pause, or a shown window's own slow start.
 * </ul>
 *
 * <h2>The order an answer is read in</h2>
 * {@link #onAnswer} is the script: the advertised pace first (it decides whether the rest is
 * discovery), then what the answer says ({@link Answer}, once), the server's count, the window of
 * calls in flight, and only then a pause and the discovered pace, which a refusal of calls in
 * flight leaves alone. A pause, a cut of the discovered pace, or a count raised void the
 * reservations held ({@link #isStale}), so that they queue again at what the key now knows
 * instead of all going when the pause ends.
 *
 * <p>Not thread-safe: one caller at a time (the shell's lock, or a simulation's single thread).
 * Times are {@link dev.polite.Ticker} nanoseconds.
 */
public final class KeyModel {
  private static final Logger log = LoggerFactory.getLogger("dev.polite");

  private final String key;
  private final PoliteConfig config;
  private final long maxWaitNanos; // read on every reservation: converted once
  private final TokenBucket bucket;
  private final SendRateMeter sendRate = new SendRateMeter();
  private final DiscoveredPace discovered;

  private final KeyPause pause;
  private final RefusalRun refusals = new RefusalRun();
  private final DoubtedDelay doubted;
  private final SharedKey shared;
  private final boolean inFleet;

  private final CallLedger ledger = new CallLedger();
  private final ServerCount count;
  private final InFlightWindow window;

  private final AdvertisedPace advertised = new AdvertisedPace();
  private final DiscoveredWindow shownWindow = new DiscoveredWindow();
  private final CountedBudget counted;
  /** A call of another cost than 1 was reserved: a window shown in calls says nothing of it. */
  private boolean weighted;
  /**
   * Whether a bare refusal came with no other call on the wire: the key's bare refusals are its
   * pace's, and no longer first taken for a cap on calls in flight ({@link InFlightWindow}).
   */
  private boolean bareIsThePace;
  /** When an answer was last read as a refusal of too many calls in flight (no pause). */
  private long refusedInFlightAt = Long.MIN_VALUE;
  /** When the last refusal set aside ({@link #setAside}) came: its body's delay is doubted too. */
  private long setAsideAt = Long.MIN_VALUE;
  private long epoch;
  private long lastGrantAt;
  private RateLimitSignals lastSignals = RateLimitSignals.none();
  /** In a fleet, the discovered pace last told to it: infinite when none. */
  private double toldPace = Double.POSITIVE_INFINITY;

  /** A key nobody has heard from, at ticker time {@code now}, known to this instance alone. */
  public KeyModel(String key, PoliteConfig config, long now) {
    this(key, config, SharedState.none().join(key, config.ticker(), () -> {}), now);
  }

  /**
   * A key nobody here has heard from, at ticker time {@code now}, whose pace, pause and remaining
   * count this instance tells {@code shared} as it learns them.
   */
  public KeyModel(String key, PoliteConfig config, SharedKey shared, long now) {
    this.key = key;
    this.shared = shared;
    this.inFleet = config.sharedState() != SharedState.none();
    this.config = config;
    this.maxWaitNanos = Nanos.of(config.maxWait());
    this.bucket = TokenBucket.full(config.startingRate(), config.startingBurst(), now);
    AdmittedRate admitted = new AdmittedRate(); // the pause takes its time out of what was admitted
    this.discovered = new DiscoveredPace(config.rateController().create(), admitted);
    this.pause = new KeyPause(key, config, admitted, shared);
    this.doubted = new DoubtedDelay(maxWaitNanos);
    this.counted = new CountedBudget(maxWaitNanos);
    this.count = new ServerCount(bucket, ledger);
    this.window = new InFlightWindow(config.cautiousStart());
    this.lastGrantAt = now;
  }

  /** The key, as the key function made it. */
  public String key() {
    return key;
  }

  /** The last signals any answer for this key carried. */
  public RateLimitSignals lastSignals() {
    return lastSignals;
  }

  /** Calls let go and not yet answered, and calls holding a reservation for their tokens. */
  public int inFlight() {
    return ledger.inFlight();
  }

  /** Calls let go and not yet answered. */
  public int onTheWire() {
    return ledger.onTheWire();
  }

  /** How many calls a second the key has been sending. */
  public double sendRate(long now) {
    return sendRate.rate(now);
  }

  /** The key's pace in requests per second; infinite when unpaced. */
  public double pace() {
    return bucket.rate();
  }

  // ---- what it allows now ----

  /**
   * How long every call to the key must still wait for a pause, 0 when none. A pause longer than
   * the max wait reads as ending at its probe time; from then on it reads 0 and the gate lets
   * one call through to re-verify it.
   */
  public long pauseLeft(long now) {
    return pause.left(now);
  }

  /**
   * How long the pause lasts in truth, 0 when none: longer than {@link #pauseLeft} when only a
   * probe can end it sooner.
   */
  public long pauseHeld(long now) {
    return pause.held(now);
  }

  /** Whether one call is re-verifying a pause no call could wait out (the probe). */
  public boolean verifyingPause() {
    return pause.verifying();
  }

  /**
   * The fleet's pause, which this key held for it alone, is over: it ends here too.
   *
   * @return whether a pause ended
   */
  public boolean fleetPauseEnded(long now) {
    return pause.endIfTheFleets(now);
  }

  /**
   * Holds every call back for a pause the fleet reports (another instance's refusal or spent
   * quota). It is bounded as this instance's own pauses are: one probe after the max wait
   * re-verifies a long one, and the fleet lets one instance's probe go for all
   * ({@link dev.polite.SharedKey#probe}). A key discovering its pace takes the fleet's refusal as
   * its own: the server refused the fleet's pace, of which this instance's calls are part.
   */
  public void pauseForFleet(long pauseNanos, boolean forRefusal, long now) {
    if (pause.holdForFleet(pauseNanos, now)) {
      pauseBegan(now);
      if (forRefusal && !advertised.known() && discovered.refusedForFleet(now)) {
        cut(lastSignals, now);
      }
    }
  }

  /** Whether a new call must wait for an answer before it may go (the key's window is full). */
  public boolean gateClosed() {
    int inFlight = inFlight();
    return inFlight >= allowedInFlight() || shownWindow.holds(inFlight) || counted.holds(inFlight);
  }

  private int allowedInFlight() {
    if (pause.verifying()) {
      return 1;
    }
    if (counted.governs() && window.cap() == 0) {
      // The server's count gates the calls (one asks while it is not known), not a slow start, a
      // probe's one at a time or a bank's.
      return Integer.MAX_VALUE;
    }
    if (discovered.oneAtATime()) {
      return 1;
    }
    return window.allowed();
  }

  /**
   * Takes a call's tokens and its place in flight; the caller checked {@link #pauseLeft} and
   * {@link #gateClosed} first.
   *
   * @return the wait until the tokens are the call's, in nanoseconds
   */
  public Reservation reserve(double cost, long now) {
    weighted |= cost != 1;
    long wait = shownWindow.believed() ? shownWindow.reserve(now) : paceWait(cost, now);
    long ticket = ledger.reserve(cost);
    return new Reservation(wait, ticket, ledger.inFlight() == 1, epoch, cost);
  }

  /** Takes a call's tokens from the pace: the wait until they are the call's. */
  private long paceWait(double cost, long now) {
    long wait = bucket.reserve(cost, now);
    if (counted.take(cost) && wait > 0) {
      // The server's count has room for it: a budget it never says when it refills is spent,
      // not paced (CountedBudget).
      bucket.refund(cost, now);
      wait = 0;
    } else if (wait > 0 && discovered.spendBank(cost, now)) {
      // What the server banked while the key's first pause held it goes at once, past the pace.
      bucket.refund(cost, now);
      wait = 0;
    }
    if (wait > maxWaitNanos && now - lastGrantAt >= maxWaitNanos) {
      // A pace no call can wait for (one per year, from a garbage window) would never let a
      // call through again to learn better. Like a long pause, it is re-verified: when nothing
      // has gone for the max wait, one call goes now, and its answer teaches the key anew.
      bucket.refund(cost, now);
      bucket.setTokens(0, now);
      wait = 0;
    }
    return wait;
  }

  /**
   * Observation mode: the call goes now, whatever the key holds, and takes its place in flight.
   * Its tokens are taken (into debt, as a queue of held calls would be) only when {@code paid}:
   * when enforcing would have sent it, sooner or later. A call enforcing would have refused takes
   * none, so the bucket follows the calls an enforcing polite would have sent, and the would-waits
   * it gives stay bounded by the max wait instead of growing with every call sent over the pace.
   * A call that goes {@code early} (enforcing would have held or refused it) carries that in its
   * permit: its refusal does not cut the pace discovered, nor back the key off.
   */
  public Permit sendAtOnce(double cost, boolean paid, boolean early, long now) {
    if (paid) {
      bucket.reserve(cost, now);
    }
    long ticket = ledger.reserve(cost);
    Permit permit = grant(now, new Reservation(0, ticket, ledger.inFlight() == 1, epoch, cost));
    return early ? permit.sentEarly() : permit;
  }

  /**
   * Whether the wait {@code reservation} faces may yet be settled away by answers on the wire: the
   * key keeps the server's count (an advertised pace, alone), calls are on the wire, and the
   * tokens the call lacks are no more than the calls on the wire: overtaken reports read as if
   * those were unseen can have undercounted by that many. Each report raises the count to what the
   * server has at least ({@link ServerCount}).
   */
  public boolean countMaySettle(Reservation reservation, long now) {
    return advertised.known() && !inFleet && count.maySettle(reservation.cost(), now);
  }

  /**
   * Whether a pause began, or a refusal cut the pace, since {@code reservation} was made. Either
   * says the capacity the reservation counted on was not there: every reservation then held was
   * voided (its place freed, its tokens forgotten or given back), so such a call simply drops its
   * reservation and queues again when the key lets it; it gives nothing back itself. Otherwise
   * every call that had paid before a pause would go at once when it ends, which a queueing
   * limiter, still draining, refuses.
   */
  public boolean isStale(Reservation reservation) {
    return reservation.epoch() != epoch;
  }

  /** The key's count of pauses begun and pace cuts: each voids every reservation held then. */
  public long epoch() {
    return epoch;
  }

  /**
   * A reservation that ends without the call going (it could not wait, or was cancelled): its
   * tokens go back and its place in flight is freed, unless a cut already did both.
   */
  public void cancel(Reservation reservation, double cost, long now) {
    if (isStale(reservation)) {
      return;
    }
    if (shownWindow.believed()) {
      shownWindow.cancel();
    } else {
      bucket.refund(cost, now);
      counted.giveBack(cost);
    }
    ledger.cancel(reservation.cost());
  }

  /** The call holding {@code reservation} (not stale) goes at {@code at}. */
  public Permit grant(long at, Reservation reservation) {
    return grant(at, reservation.ticket(), reservation.alone(), reservation.cost());
  }

  /**
   * The permit of a call of {@code cost} whose tokens the pace holds now, reserved and granted
   * at once, as {@link #reserve} then {@link #grant} would, with no reservation made between: the
   * uncontended call's path, which the key's shell takes when nothing holds the call back. Null,
   * with nothing taken, when the call would wait for its tokens (or the key paces by a window
   * the server showed: such calls always reserve).
   */
  public @Nullable Permit grantIfDue(double cost, long now) {
    if (shownWindow.believed() || bucket.waitFor(cost, now) > 0) {
      return null;
    }
    weighted |= cost != 1;
    bucket.reserve(cost, now); // due now: it takes the tokens, and waits for none
    counted.take(cost);
    long ticket = ledger.reserve(cost);
    return grant(now, ticket, ledger.inFlight() == 1, cost);
  }

  private Permit grant(long at, long ticket, boolean alone, double cost) {
    int others = ledger.send(cost);
    lastGrantAt = at;
    if (shownWindow.believed()) {
      shownWindow.sent(at);
    }
    sendRate.recordSend(at);
    discovered.firstSend(at);
    return new Permit(at, ticket, alone, others);
  }

  /**
   * Settles a call's cost: {@code unused} units go back to the bucket (up to its capacity), or,
   * when negative, the excess is taken (into debt, which the next reservations wait out).
   */
  public void settle(double unused, long now) {
    weighted |= unused != 0; // a call that cost other than it reserved: the key's calls are weighed
    if (unused > 0) {
      bucket.refund(unused, now);
    } else if (unused < 0) {
      bucket.reserve(-unused, now);
    }
  }

  /**
   * The wait a call of {@code cost} would face now: the pause and the pace, ignoring the gate; for
   * a key that refuses every call, the whole pause, which no call waits out.
   */
  public long waitEstimate(double cost, long now) {
    if (pause.refusing()) {
      return pause.held(now);
    }
    long pace = shownWindow.believed() ? shownWindow.waitFor(now) : bucket.waitFor(cost, now);
    return Math.max(pauseLeft(now), pace);
  }

  // ---- what an answer teaches it ----

  /**
   * Learns from an answer to the call {@code permit} let go: the server's pace, its remaining
   * count, a pause, and the rate controller's verdict.
   */
  public void onAnswer(int status, RateLimitSignals signals, Permit permit, long now) {
    pause.settle(now);
    boolean exclusive = ledger.wasExclusive(permit);
    ledger.ended();
    lastSignals = signals;
    boolean firstPace = !advertised.known();
    learnPace(signals, permit.sentAt(), now);
    // The bucket is read for refusals only: every answer passes here.
    boolean refusal = Answer.isRefusal(status, signals);
    boolean bare = refusal && !advertised.known() && namesNoDelay(signals) && Answer.reportsNoBudget(signals);
    // In a fleet a bare refusal is the pace's, as before: the other instances' calls fill the
    // server too, so this instance's calls on the wire say nothing of a cap.
    boolean notThePace = refusal && (advertised.known() ? bucket.tokens(now) >= 1 : bare && !bareIsThePace && !inFleet);
    Answer answer = Answer.of(status, signals, permit.othersOnTheWire(), notThePace);
    boolean rejected = answer.refused();
    readCount(signals, exclusive || firstPace, permit, now);
    readCountedBudget(answer, signals, permit, exclusive, now);
    if (advertised.known()) { // after the remaining count, so the fleet's bucket starts from what is left
      shared.paceLearned(bucket.rate(), bucket.capacity(), true, now);
    }
    if (answer.admitted()) {
      discovered.admittedOne(now);
      pause.admitted(now);
      doubted.admitted(permit.sentAt());
    }
    if (setAside(answer, signals, permit.sentAt(), now)) {
      return;
    }
    if (pause.verifying()) {
      pause.probed(answer, now);
    }
    RefusalRun.Step step = refusals.onAnswer(answer, permit.sentAt(), permit.early(), now);
    if (step == RefusalRun.Step.REFUSES_EVERYTHING || (step == RefusalRun.Step.ROUND && pause.refusing())) {
      refusesEverything(step == RefusalRun.Step.REFUSES_EVERYTHING, now); // found, or its probe refused
    }
    if (bare && !answer.refusedInFlight() && !permit.early()) {
      bareIsThePace = true; // refused with no other call on the wire: no cap explains it
      window.trialRefused();
    }
    window.onAnswer(answer, permit.othersOnTheWire(), ledger.onTheWire(), permit.sentAt(), advertised.known(),
        inFleet ? shared.instances() : 1, bare, now);
    if (answer.refusedInFlight()) {
      refusedInFlightAt = now;
      log.debug("polite: {} refused a call sent with {} others on the wire: {}", key,
          permit.othersOnTheWire(), window);
      // A cap on calls in flight, not the pace: the window just shrank to it. The refused call
      // waits out its own Retry-After before its retry; pausing every call would leave the
      // server's free slots idle for it.
      return;
    }
    if (pause.ask(answer, signals, advertised.inferredWindow(), now)) {
      pauseBegan(now);
    }
    // A refusal of a call sent early (observation mode) says the server refuses what an enforcing
    // key would not have sent: no news about the pace it would have found, or its backoff.
    boolean windowRefused = false;
    if (!advertised.known() && !(rejected && permit.early())) {
      // A count the server keeps says more than any shape its answers show: no window is learnt.
      windowRefused = !counted.governs() && learnWindow(answer, permit.sentAt(), now);
      if (!windowRefused) {
        discoverPace(answer, signals, permit.sentAt(), now);
      }
    }
    // RateController.none() promises no discovery, so no pause the server did not ask for.
    boolean discovering = advertised.known() || discovered.found()
        || (discovered.refusedFirst() && config.rateController() != RateController.none());
    boolean backOff = rejected && !permit.early() && !windowRefused;
    if (pause.backOffIfBare(backOff, signals, permit.sentAt(), discovering, now)) {
      pauseBegan(now);
    }
  }

  /**
   * Whether a refusal is set aside, its delay doubted ({@link DoubtedDelay}): it names a delay no
   * call may wait, longer than an hour, on a key that shows no limit and is not held past any
   * wait. Its call gives up; the key learns nothing from it, pauses for nothing, and goes on. A
   * key held past any wait already believes a long delay (confirmed, or a spent quota's), and a
   * refusal naming another renews it; a shorter pause (a second's Retry-After from the limiter,
   * which the calls on the wire meet beside the stray refusals) is no reason to believe a day.
   */
  private boolean setAside(Answer answer, RateLimitSignals signals, long sentAt, long now) {
    if (advertised.known() || !Answer.reportsNoBudget(signals) || pause.held(now) > maxWaitNanos) {
      return false;
    }
    boolean wasDoubting = doubted.doubting();
    if (!doubted.doubts(answer, signals, sentAt, now)) {
      if (wasDoubting && !doubted.doubting()) {
        log.info("polite: {} refused {} calls sent after one that named a delay of {}, none admitted: "
            + "the delay holds", key, DoubtedDelay.CONFIRMING, signals.retryAfter());
      }
      return false;
    }
    setAsideAt = now;
    if (!wasDoubting) {
      log.info("polite: {} refused a call with a delay of {}, longer than calls wait or any common window, "
          + "and shows no limit: "
          + "the call gives up, and the key goes on until the calls after it confirm the delay", key,
          signals.retryAfter());
    }
    return true;
  }

  /**
   * The body of a refusal learnt at {@code learnedAt} from its headers alone named a delay:
   * {@code withBody} is that answer's signals with it. Read after the headers were learnt, so
   * that a body in no hurry to arrive holds no permit; the delay then refines the pause the
   * headers began ({@link KeyPause#refine}). A refusal read as a cap on calls in flight pauses
   * no one, whatever its body says.
   */
  public void onBodyHint(int status, RateLimitSignals withBody, long learnedAt, long now) {
    Duration hint = withBody.retryAfter();
    if (hint == null || !withBody.isRejection() || refusedInFlightAt == learnedAt || setAsideAt == learnedAt) {
      return;
    }
    lastSignals = withBody;
    if (pause.refine(hint, status, learnedAt, now)) {
      pauseBegan(now);
    }
  }

  /** Whether a refusal names no time to wait: no Retry-After, or one of 0 ({@link KeyPause}). */
  private static boolean namesNoDelay(RateLimitSignals signals) {
    Duration retryAfter = signals.retryAfter();
    return retryAfter == null || retryAfter.isZero();
  }

  /** A call let go ended without an answer. */
  public void onFailure() {
    ledger.ended();
  }

  /**
   * A call let go here was answered for another budget of the key (see {@link dev.polite.internal.budgets.KeyBudgets}): it
   * spent that budget, not this one, so its {@code cost} comes back unless the application
   * settles it here itself ({@code refund} false); the answer teaches this budget nothing.
   */
  public void handedOver(double cost, boolean refund, long now) {
    ledger.ended();
    if (refund) {
      bucket.refund(cost, now);
    }
  }

  /**
   * Takes on a call that another budget of the key let go at {@code sentAt} and whose answer
   * counts against this one: it is on this key's wire from now, with this key's other calls, and
   * the permit returned goes to {@link #onAnswer} with its answer. Its tokens are not taken: the
   * answer's remaining count, reconciled as any other, says what is left.
   */
  public Permit adopt(long sentAt) {
    return ledger.adopt(sentAt);
  }

  private void learnPace(RateLimitSignals signals, long sentAt, long now) {
    AdvertisedPace.Pace pace = advertised.learn(signals, bucket.rate(), bucket.capacity(), sentAt, now);
    if (pace == null) {
      return;
    }
    discovered.advertised();
    if (shownWindow.believed()) {
      voidReservations(now); // reserved in the window: they queue again at the advertised pace
    }
    shownWindow.abandon();
    if (pace.rate() == bucket.rate() && pace.burst() == bucket.capacity()) {
      return;
    }
    bucket.setRate(pace.rate(), now);
    bucket.setCapacity(pace.burst(), now);
    log.info(config.observeOnly() ? "polite (observing): {} advertises {} per {}; would pace at {}/s, burst {}"
            : "polite: {} advertises {} per {}; pacing at {}/s, burst {}", key, (long) pace.burst(),
        pace.inferred() ? pace.window() + " (inferred)" : pace.window(), pace.rate(), pace.burst());
    notify(l -> l.policyLearned(key, pace.rate(), pace.burst(), signals));
  }

  /**
   * Reads the server's remaining count ({@link ServerCount}) where the key keeps it: an advertised
   * pace, counting requests, alone. In a fleet the count is the fleet's: its bucket takes it, less
   * the whole fleet's calls on the wire; set here too, it would hold this instance back for calls
   * other instances made.
   *
   * @param exact the report may raise the key's count: the call was the key's only one from grant
   *     to answer, or the key's count means nothing yet
   */
  private void readCount(RateLimitSignals signals, boolean exact, Permit permit, long now) {
    if (!advertised.known() || !signals.countsRequests() || signals.remaining().isEmpty()) {
      return;
    }
    long remaining = signals.remaining().getAsLong();
    shared.remaining(remaining, ledger.onTheWire(), now);
    if (inFleet) {
      return;
    }
    double raiseTo = count.report(remaining, exact, permit, now);
    if (!ServerCount.stands(raiseTo)) {
      if (ledger.reserved() > 0) {
        voidReservations(now);
      }
      bucket.setTokens(raiseTo, now);
    }
  }

  /**
   * Reads the count of a budget the server never says when it refills ({@link CountedBudget}): a
   * key alone, showing no pace, whose calls weigh one; an answer that reports it empty pauses the
   * key for the refill learnt, as a spent quota's reset does.
   */
  private void readCountedBudget(Answer answer, RateLimitSignals signals, Permit permit, boolean exact,
      long now) {
    if (inFleet) {
      return;
    }
    if (advertised.known() || weighted) {
      counted.drop(); // a pace advertised governs, and a count of calls says nothing of weighed ones
      return;
    }
    if (answer.refused()) {
      counted.refused(namesNoDelay(signals) ? null : signals.retryAfter(), now);
    } else if (answer.admitted() && CountedBudget.reports(signals)) {
      long refill = counted.admitted(signals.remaining().getAsLong(), ledger.after(permit), exact,
          permit.sentAt(), now);
      // An answer that names its own delay is paused by it (KeyPause#ask), not by the refill learnt.
      if (refill > 0 && signals.retryAfter() == null && pause.holdSpent(refill, now)) {
        pauseBegan(now);
      }
    }
  }

  /**
   * A silent server's window, shown by a burst it took whole and a reopening (see
   * {@link DiscoveredWindow}); read before the pace, so that a reopening is weighed against the
   * pace the refusal left, and a refusal that drops a window already taken whole is then cut
   * from as any other. The fleet
   * shares a pace, not a window, weighted calls are not counted in calls, and a key told to
   * discover nothing discovers no window either.
   *
   * @return whether the answer refused a call of a window on trial (not yet taken whole): it
   *     says the window is not there, or counts fewer than believed, and nothing of the pace, which
   *     the key kept all along and goes back to as it was (or the window, recounted, keeps
   *     governing). Such a call went past the pace on the window's word: cutting the
   *     pace for it, or backing the key off as for a bare refusal, would charge the even pace for
   *     the window's mistake (a second's pause and cut on HAProxy's sliding rate, which takes a
   *     window's first call and refuses its second).
   */
  private boolean learnWindow(Answer answer, long sentAt, long now) {
    if (inFleet || weighted || config.rateController() == RateController.none()) {
      return false;
    }
    if (answer.admitted() && shownWindow.onAdmitted(sentAt, bucket.rate(), maxWaitNanos)) {
      voidReservations(now); // reserved at the even pace: they queue again for the window
      discovered.windowShown();
      log.info("polite: {} took a burst whole and reopened after it: sending up to {}", key, shownWindow);
      return false;
    }
    DiscoveredWindow.Declined declined = shownWindow.takeDeclined();
    if (declined != null) {
      log.debug("polite: {} showed no window to believe: {}", key, declined);
    }
    if (!answer.refused()) {
      return false;
    }
    boolean onTrial = shownWindow.onTrial();
    DiscoveredWindow.Refusal refusal = shownWindow.onRefused(sentAt, now);
    if (refusal == DiscoveredWindow.Refusal.NOTHING) {
      return false;
    }
    voidReservations(now); // reserved at the window believed before: they queue again
    if (refusal == DiscoveredWindow.Refusal.RECOUNTED) {
      log.info("polite: {} took fewer calls in the window it showed than its burst: sending up to {}",
          key, shownWindow);
      return true;
    }
    bucket.setTokens(0, now); // the pace resumes from now, not with what it saved meanwhile
    log.info("polite: {} refused a call sent in the window it showed: pacing evenly again", key);
    return onTrial;
  }

  /** An answer to a key that finds its own pace: a refusal may cut it, a success let it climb. */
  private void discoverPace(Answer answer, RateLimitSignals signals, long sentAt, long now) {
    if (answer.refused()) {
      boolean paced = !Double.isInfinite(bucket.rate()) || (inFleet && discovered.found());
      if (discovered.refused(sentAt, paced, !inFleet, now)) {
        cut(signals, now);
      }
    } else if (answer.admitted()) {
      boolean bankBelieved = discovered.succeeded(sentAt, sendRate.rate(now), now);
      if (bankBelieved) {
        log.debug("polite: {} admitted the probe after its first cut: {} banked calls go at once", key,
            discovered.bank());
      }
      if (bankBelieved && ledger.reserved() > 0) {
        // The calls queued behind the probe reserved at the pace before its answer: they queue
        // again, and the bank goes first, while the server still holds it.
        voidReservations(now);
      }
      applyDiscoveredPace(signals, now);
    }
  }

  /**
   * The discovered pace was cut: the reservations made at the old pace are void, and no tokens
   * are left, so that the next call goes at the new pace from now.
   */
  private void cut(RateLimitSignals signals, long now) {
    voidReservations(now);
    applyDiscoveredPace(signals, now);
    bucket.setTokens(0, now);
  }

  /**
   * The run of refusals shows the key refuses every call ({@link RefusalRun}), {@code first} or
   * again at its probe: it is held until the next probe finds otherwise, and its calls fail at
   * once. The probes go as a bare refusal's backoff would send them.
   */
  private void refusesEverything(boolean first, long now) {
    long run = refusals.length(now);
    long probeIn = pause.holdRefusing(run, now);
    pauseBegan(now);
    if (first) {
      int refused = refusals.refusals();
      notify(l -> l.refusesEverything(key, refused, Duration.ofNanos(probeIn)));
      log.warn(config.observeOnly()
          ? "polite (observing): {} refused {} calls in {} ms, admitting none: would fail its calls at once, one "
              + "call re-verifying in {} ms"
          : "polite: {} refused {} calls in {} ms, admitting none: failing its calls at once; one call re-verifies "
              + "in {} ms", key, refused, run / 1_000_000, probeIn / 1_000_000);
    }
  }

  /**
   * Whether the key is held as one that refuses every call: its calls fail at once, but the probe
   * that re-verifies it.
   */
  public boolean refusesEverything() {
    return pause.refusing();
  }

  /** A pause began: what was reserved before it is void, and what it restores is new. */
  private void pauseBegan(long now) {
    counted.paused();
    voidReservations(now);
    bucket.setTokens(Math.min(bucket.tokens(now), 0), now);
  }

  /** Frees the places of the reservations held now and gives back their tokens (see isStale). */
  private void voidReservations(long now) {
    double voided = ledger.voidReservations();
    if (shownWindow.believed()) {
      shownWindow.voided(now);
    } else {
      bucket.refund(voided, now);
    }
    epoch++;
  }

  /**
   * The discovered pace governs the key's bucket, or, in a fleet, is told to it: there the fleet's
   * own pace governs, in the units it leases ({@link SharedKey#take}), and the controller's pace
   * is this instance's view. Paced by it too, an instance would hold the units the fleet leased
   * it past their time (one instance's share spaces calls P times further apart than a lease's
   * units fall due), and lease again for every call.
   */
  private void applyDiscoveredPace(RateLimitSignals signals, long now) {
    double rate = discovered.rate();
    if (Double.isInfinite(rate)) {
      return;
    }
    if (inFleet) {
      if (rate != toldPace) {
        toldPace = rate;
        shared.paceLearned(rate, 1, false, now);
        log.debug("polite: {} found {}/s by its rate controller, told to the fleet", key, rate);
      }
      return;
    }
    if (rate == bucket.rate()) {
      return;
    }
    shared.paceLearned(rate, 1, false, now);
    bucket.setRate(rate, now);
    bucket.setCapacity(1, now);
    log.debug("polite: {} paced at {}/s by its rate controller", key, rate);
    notify(l -> l.policyLearned(key, rate, 1, signals));
  }

  /** What the key knows at {@code now}. */
  public KeySnapshot snapshot(long now) {
    KeySnapshot.Source source;
    if (advertised.known()) {
      source = KeySnapshot.Source.ADVERTISED;
    } else if (discovered.found()) {
      source = KeySnapshot.Source.DISCOVERED;
    } else if (!Double.isInfinite(bucket.rate())) {
      source = KeySnapshot.Source.STARTING;
    } else {
      source = KeySnapshot.Source.UNPACED;
    }
    return new KeySnapshot(key, bucket.rate(), bucket.capacity(), bucket.tokens(now),
        Duration.ofNanos(pauseLeft(now)), advertised.policy(), source, inFlight(),
        config.observeOnly());
  }

  /** Tells the listener (a SafeListener: it cannot throw). */
  public void notify(Consumer<PoliteListener> event) {
    event.accept(config.listener());
  }

  /**
   * A call's claim on its tokens and its place in flight.
   *
   * @param waitNanos nanoseconds until the tokens are the call's
   * @param ticket the key's count of calls reserved so far, this one included
   * @param alone whether no other call was in flight or reserved
   * @param epoch the key's count of pauses begun and pace cuts when it was made
   * @param cost what the call costs, in the key's units
   */
  public record Reservation(long waitNanos, long ticket, boolean alone, long epoch, double cost) {}

  @Override
  public String toString() {
    return "KeyModel{" + key + " " + bucket + " " + ledger
        + " " + pause + " " + refusals + " " + doubted + " " + discovered
        + " " + window + (shownWindow.believed() ? " " + shownWindow : "") + " " + counted + '}';
  }
}

