package dev.polite.internal;

import dev.polite.PoliteListener;
import dev.polite.RateController;
import dev.polite.RateLimitSignals;
import dev.polite.RateLimitedException;
import dev.polite.TokenBucket;
import java.io.IOException;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Everything polite knows about one rate-limit key, and the gate every call to it passes.
 *
 * <h2>What it tracks</h2>
 * <ul>
 *   <li>a {@link TokenBucket}: unlimited until something sets a pace, then at the server's
 *       advertised {@code quota / window} with the quota as burst, or at the rate controller's
 *       discovered pace with a burst of one;
 *   <li>"paused until": set by a Retry-After, or by a reset when the server says nothing is left.
 *       One 429 pauses every call to the key, not only the one that got it;
 *   <li>calls in flight, so that a server's remaining count can be reconciled with the calls it
 *       has not seen yet (tokens = remaining - others in flight);
 *   <li>the gate: until the key's first answer (when cautious) and while probing after a
 *       rejection, at most one call is in flight, so a burst cannot blow through a limit
 *       nobody has seen yet.
 * </ul>
 *
 * <h2>Why one lock</h2>
 * Pace, pause, gate and counts change together when an answer arrives; one monitor per key keeps
 * them consistent and lets gate waiters be woken by {@code notifyAll}. Sleeps happen outside it.
 *
 * <p>Thread-safe.
 */
public final class KeyState {
  private static final Logger log = LoggerFactory.getLogger("dev.polite");

  private final String key;
  private final KeyConfig config;
  private final TokenBucket bucket;
  private final RateController controller;
  private final RetryBudget retryBudget;
  private final SendRateMeter meter = new SendRateMeter();

  private long pausedUntil;
  private boolean paused;
  private boolean pauseWasRejection;
  private boolean heard;
  private int inFlight;
  private boolean probing;
  private boolean advertised;
  private long lastCutAt = Long.MIN_VALUE;
  private long tickets;
  private RateLimitSignals lastSignals = RateLimitSignals.none();
  private volatile long lastUsed;

  KeyState(String key, KeyConfig config, long now) {
    this.key = key;
    this.config = config;
    this.bucket = TokenBucket.full(config.startingRate(), config.startingBurst(), now);
    this.controller = config.controllers().create();
    this.retryBudget = new RetryBudget(config.retryBudgetTokens(), config.retryBudgetRatio());
    this.lastUsed = now;
  }

  /** The key, as the key function made it. */
  public String key() {
    return key;
  }

  /** The key's retry budget. */
  public RetryBudget retryBudget() {
    return retryBudget;
  }

  long lastUsed() {
    return lastUsed;
  }

  synchronized boolean isIdle() {
    return inFlight == 0;
  }

  /**
   * Waits until a call of {@code cost} may be sent: past any pause, through the gate, and with
   * its tokens paid. On return the call counts as in flight and must end in {@link #onAnswer} or
   * {@link #onFailure}.
   *
   * @return the call's permit, to hand back with its answer
   * @throws RateLimitedException when the wait would exceed the call's patience
   * @throws java.io.InterruptedIOException when the call is cancelled or the thread interrupted
   */
  public Permit acquire(double cost, Patience patience) throws IOException {
    boolean reserved = false;
    boolean granted = false;
    long ticket = 0;
    boolean alone = false;
    long due = Long.MIN_VALUE;
    try {
      while (true) {
        long sleep;
        long now;
        synchronized (this) {
          now = config.ticker().read();
          lastUsed = now;
          long pause = pauseLeft(now);
          if (pause > 0) {
            sleep = pause;
          } else if (reserved) {
            granted = true;
            return grant(due == Long.MIN_VALUE ? now : Math.min(now, due), patience, ticket, alone);
          } else if (gateClosed()) {
            if (!patience.awaitSignal(this)) {
              throw tooLong(null, "no answer yet from a call already in flight");
            }
            continue;
          } else {
            sleep = bucket.reserve(cost, now);
            alone = ++inFlight == 1;
            ticket = ++tickets;
            reserved = true;
            if (sleep == 0) {
              granted = true;
              return grant(now, patience, ticket, alone);
            }
          }
          if (!patience.allows(sleep, now)) {
            throw tooLong(Duration.ofNanos(sleep), pause > 0 ? "the key is paused" : "the key's pace");
          }
          if (reserved) {
            due = Patience.saturatedAdd(now, sleep);
          }
        }
        patience.sleep(sleep, now);
      }
    } finally {
      if (reserved && !granted) {
        // Never hold tokens or a place in flight for a call that is not going.
        synchronized (this) {
          bucket.refund(cost, config.ticker().read());
        }
        release();
      }
    }
  }

  private Permit grant(long at, Patience patience, long ticket, boolean alone) {
    meter.recordSend(at);
    if (patience.waited() > 0) {
      notify(l -> l.paced(key, Duration.ofNanos(patience.waited())));
    }
    return new Permit(at, ticket, alone);
  }

  /**
   * Learns from an answer to the call {@code permit} let go: the server's pace, its remaining
   * count, a pause, and the rate controller's verdict.
   */
  public void onAnswer(int status, RateLimitSignals signals, Permit permit) {
    synchronized (this) {
      long now = config.ticker().read();
      long sentAt = permit.sentAt();
      boolean exclusive = permit.alone() && permit.ticket() == tickets;
      inFlight--;
      heard = true;
      lastSignals = signals;
      boolean firstPace = !advertised;
      learnAdvertisedPace(signals, now);
      reconcileRemaining(signals, exclusive || firstPace, now);
      pauseIfAsked(status, signals, now);
      if (!advertised) {
        discoverPace(status, signals, sentAt, now);
      }
      notifyAll();
    }
    if (signals.isRejection()) {
      notify(l -> l.rateLimited(key, signals));
    }
  }

  /** A call let go by {@link #acquire} ended without an answer. */
  public void onFailure() {
    release();
  }

  /**
   * The wait a call of {@code cost} would face now: the pause and the pace, ignoring the gate.
   * Used to decide whether a retry can fit before the failed response is given up.
   */
  public synchronized long waitEstimate(double cost, long now) {
    return Math.max(pauseLeft(now), bucket.waitFor(cost, now));
  }

  /** The last signals any answer for this key carried. */
  public synchronized RateLimitSignals lastSignals() {
    return lastSignals;
  }

  private synchronized void release() {
    inFlight--;
    notifyAll();
  }

  private boolean gateClosed() {
    return inFlight > 0 && (probing || (config.cautiousStart() && !heard));
  }

  private long pauseLeft(long now) {
    if (!paused) {
      return 0;
    }
    long left = pausedUntil - now;
    if (left > 0) {
      return left;
    }
    paused = false;
    if (pauseWasRejection) {
      log.info("polite: calls to {} resume", key);
    } else {
      log.debug("polite: calls to {} resume", key);
    }
    notify(l -> l.resumed(key));
    return 0;
  }

  private void learnAdvertisedPace(RateLimitSignals signals, long now) {
    if (!signals.advertisesRate()) {
      return;
    }
    double rate = signals.advertisedRatePerSecond();
    double burst = signals.limit().orElseThrow();
    advertised = true;
    probing = false;
    if (rate == bucket.rate() && burst == bucket.capacity()) {
      return;
    }
    bucket.setRate(rate, now);
    bucket.setCapacity(burst, now);
    log.info("polite: {} advertises {} per {}; pacing at {}/s, burst {}",
        key, signals.limit().getAsLong(), signals.window(), rate, burst);
    notify(l -> l.policyLearned(key, rate, burst, signals));
  }

  /**
   * @param trusted the report may raise our count: the call was the key's only one from grant to
   *     answer (so the server's count is exact), or our count means nothing yet
   */
  private void reconcileRemaining(RateLimitSignals signals, boolean trusted, long now) {
    if (!advertised || !signals.countsRequests() || signals.remaining().isEmpty()) {
      return;
    }
    long remaining = signals.remaining().getAsLong();
    if (trusted) {
      bucket.setTokens(remaining - inFlight, now);
    } else {
      // Others were in flight: the server may have counted some after this report, or not yet
      // seen them, and answers overtake each other. Such a report may only lower our count;
      // our own refill at the advertised rate raises it.
      bucket.setTokens(Math.min(bucket.tokens(now), remaining - inFlight), now);
    }
  }

  private void pauseIfAsked(int status, RateLimitSignals signals, long now) {
    Duration pause = signals.retryAfter();
    boolean exhausted = signals.remaining().isPresent() && signals.remaining().getAsLong() == 0;
    if (pause == null && exhausted) {
      pause = signals.reset();
    }
    if (pause == null || pause.isZero()) {
      return;
    }
    if (!signals.isRejection() && status != 503 && !exhausted) {
      return; // a Retry-After on a success is advice for redirects and the like, not a pause
    }
    long until = Patience.saturatedAdd(now, saturatedNanos(pause));
    if (paused && until <= pausedUntil) {
      return;
    }
    pausedUntil = until;
    if (!paused) {
      paused = true;
      // A spent quota is the ordinary rhythm of a paced key; a refusal is news.
      pauseWasRejection = signals.isRejection() || status == 503;
      if (pauseWasRejection) {
        log.info("polite: pausing calls to {} for {} (the server answered {})", key, pause, status);
      } else {
        log.debug("polite: pausing calls to {} for {} (quota spent)", key, pause);
      }
    }
    Duration p = pause;
    notify(l -> l.paused(key, p));
  }

  private void discoverPace(int status, RateLimitSignals signals, long sentAt, long now) {
    if (signals.isRejection()) {
      if (sentAt < lastCutAt) {
        return; // already on the wire when we cut: the cut answered it
      }
      controller.onRejection(now, meter.rate(now));
      lastCutAt = now;
      probing = true;
      applyControllerPace(signals, now);
      bucket.setTokens(0, now);
    } else if (status < 500) {
      probing = false;
      controller.onSuccess(now, meter.rate(now));
      applyControllerPace(signals, now);
    }
  }

  private void applyControllerPace(RateLimitSignals signals, long now) {
    double rate = controller.rate();
    if (Double.isInfinite(rate) || rate == bucket.rate()) {
      return;
    }
    bucket.setRate(rate, now);
    bucket.setCapacity(1, now);
    log.debug("polite: {} paced at {}/s by its rate controller", key, rate);
    notify(l -> l.policyLearned(key, rate, 1, signals));
  }

  private void notify(java.util.function.Consumer<PoliteListener> event) {
    event.accept(config.listener()); // a SafeListener: it cannot throw
  }

  private RateLimitedException tooLong(@Nullable Duration wait, String why) {
    notify(l -> l.gaveUp(key, dev.polite.GiveUpReason.WAIT_TOO_LONG, wait == null ? Duration.ZERO : wait));
    String message = "polite: not sending to " + key + ": " + why
        + (wait == null ? " and the call may wait no longer" : "; that needs a wait of " + wait
            + ", more than the call may wait");
    return new RateLimitedException(key, wait, lastSignals, message);
  }

  static long saturatedNanos(Duration d) {
    try {
      return d.toNanos();
    } catch (ArithmeticException e) {
      return Long.MAX_VALUE;
    }
  }

  @Override
  public synchronized String toString() {
    return "KeyState{" + key + " " + bucket + " inFlight=" + inFlight
        + (paused ? " paused" : "") + (probing ? " probing" : "") + '}';
  }
}
