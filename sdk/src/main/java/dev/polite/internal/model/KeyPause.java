package dev.polite.internal.model;

import dev.polite.PoliteConfig;
import dev.polite.RateLimitSignals;
import dev.polite.SharedKey;
import dev.polite.internal.Nanos;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * When every call to one key must hold back, and why: a Retry-After, the reset of a spent quota,
 * or a backoff after a refusal that named no delay.
 *
 * <h2>What a pause promises, and its bound</h2>
 * One 429 pauses every call to the key, not only the one that got it. But a pause is only as good
 * as the evidence behind it, and a wrong one (a garbage reset, a Retry-After of a day from a
 * server that recovered in a minute) must not stop the key for its whole length. So a pause
 * longer than any call may wait ({@code maxWait}) reads as ending after {@code maxWait}; then
 * one call goes through as a probe ({@link #verifying()}), and its answer either ends the pause
 * or renews it for another {@code maxWait}. A wrong signal costs a probe per {@code maxWait},
 * never the day.
 *
 * <h2>Refusals that name no delay</h2>
 * A bare 429 (HAProxy sends nothing else) still means "not now". While the key discovers its pace
 * it pauses for a backoff that grows with each such refusal in a row, counted from the first
 * (the retry backoff's base and cap; see {@link #bareBackoff}), until a call sent after the last
 * one succeeds. Without it, probes would go at the
 * pace into a limiter that counts refused requests too (HAProxy's sliding rate does) and keep it
 * shut. Refusals of calls already on the wire at the last one carry no news and are not counted.
 * A {@code Retry-After: 0} on a refusal names no time either ("not now, but now") and is read as
 * bare: honoured, it would send the retry into the limiter that just refused it.
 *
 * <h2>A key that refuses every call</h2>
 * When the refusals show the key refuses everything ({@link RefusalRun}), the key is held until
 * a probe finds otherwise ({@link #holdRefusing}): its calls fail at once, saying so, instead of
 * each waiting out its max wait against a limiter that admits nothing.
 *
 * <p>Not thread-safe: part of {@link KeyModel}. Times are ticker nanoseconds.
 */
final class KeyPause {
  private static final Logger log = LoggerFactory.getLogger("dev.polite");

  private final String key;
  private final PoliteConfig config;
  private final long maxWaitNanos;
  private final long backoffBaseNanos;
  private final long backoffCapNanos;
  private final AdmittedRate admitted;
  private final SharedKey shared;

  private boolean paused;
  private long until;
  private long since;
  private long probeAt = Long.MAX_VALUE;
  private boolean verifying;
  private boolean forRefusal;
  private long lastBareRefusalAt = Long.MIN_VALUE;
  /** When the bare refusals in a row began, or MIN_VALUE while none is. */
  private long bareStreakSince = Long.MIN_VALUE;
  /** Whether the pause is the fleet's alone: no answer of this instance's began or lengthened it. */
  private boolean fromFleet;
  /** When the pause's end was last set by an answer of this instance's, to refine it from a body. */
  private long lastHeldAt = Long.MIN_VALUE;
  /** Whether the pause holds a key that refuses every call ({@link #holdRefusing}): only a probe ends it. */
  private boolean refusing;
  /** While {@link #refusing}: how long after the last probe the next one goes. */
  private long probeIn;

  /**
   * @param admitted told how long each pause lasted, which is not held against the server
   * @param shared told of every pause this instance begins or lengthens, and of a probe that
   *     ended one, so the fleet holds back with it
   */
  KeyPause(String key, PoliteConfig config, AdmittedRate admitted, SharedKey shared) {
    this.key = key;
    this.config = config;
    this.maxWaitNanos = Nanos.of(config.maxWait());
    this.backoffBaseNanos = Nanos.of(config.backoffBase());
    this.backoffCapNanos = Nanos.of(config.backoffCap());
    this.admitted = admitted;
    this.shared = shared;
  }

  /**
   * How long every call must still wait, 0 when none. A pause longer than the max wait reads as
   * ending at its probe time; from then on it reads 0 and {@link #verifying()} is true.
   */
  long left(long now) {
    if (!paused) {
      return 0;
    }
    long left = until - now;
    if (left <= 0) {
      end(until);
      return 0;
    }
    if (now >= probeAt) {
      if (!verifying && refusing) {
        verifying = true;
        log.info(config.observeOnly() ? "polite (observing): one call would re-verify that {} refuses every call"
            : "polite: one call re-verifies that {} refuses every call", key);
      } else if (!verifying) {
        verifying = true;
        log.info(config.observeOnly()
            ? "polite (observing): {} would have been paused for as long as a call may wait; one "
                + "call would re-verify the pause"
            : "polite: {} has been paused for as long as a call may wait; one call re-verifies "
                + "the pause", key);
      }
      return 0;
    }
    return Math.min(left, probeAt - now);
  }

  /**
   * How long the pause still lasts in truth, past its probe time too: the server's delay, which a
   * call that cannot wait it out is told. 0 when none.
   */
  long held(long now) {
    return paused ? Math.max(0, until - now) : 0;
  }

  /** Whether one call is re-verifying a pause no call could wait out. */
  boolean verifying() {
    return verifying;
  }

  /** Ends a pause whose time has come, so that what it cost is known before an answer is learnt. */
  void settle(long now) {
    if (paused && until <= now) {
      end(until);
    }
  }

  /** Whether the key is held as one that refuses every call ({@link #holdRefusing}). */
  boolean refusing() {
    return refusing;
  }

  /**
   * The answer to the probe of a long pause: one that holds nothing back ends it, any other renews
   * it (a key that refuses every call, by {@link #holdRefusing} again).
   */
  void probed(Answer answer, long now) {
    verifying = false;
    if (!answer.holdsBack()) {
      end(now);
      shared.resumed(now);
    } else {
      // A key refusing everything is held again by the refusal (KeyModel); anything else that
      // holds back puts the probe off by the interval it had.
      probeAt = Nanos.add(now, refusing ? probeIn : maxWaitNanos);
    }
  }

  /**
   * A call was admitted: a key held as refusing every call is not (the call was its probe, or went
   * before the hold began), and its hold ends here and for the fleet.
   */
  void admitted(long now) {
    if (refusing) {
      end(now);
      shared.resumed(now);
    }
  }

  /**
   * Holds a key that refuses every call ({@link RefusalRun}), {@code refusedFor} into its run of
   * refusals, until one probe finds otherwise. The probe goes when a bare refusal's backoff would
   * send the next one ({@link #bareBackoff}: half the run, at least the base, at most the cap), and
   * every other call fails at once meanwhile: the hold is told as lasting past any call's max wait,
   * here and to the fleet (which re-verifies its own long pauses, one probe for all). The listener
   * hears the pause until the probe.
   *
   * @return the time until the probe
   */
  long holdRefusing(long refusedFor, long now) {
    boolean began = !paused;
    probeIn = bareBackoff(refusedFor);
    long nanos = Nanos.add(maxWaitNanos, probeIn);
    shared.paused(nanos, true, now);
    refusing = true;
    verifying = false;
    lastHeldAt = now;
    fromFleet = false;
    until = Nanos.add(now, nanos);
    probeAt = Nanos.add(now, probeIn);
    if (began) {
      paused = true;
      since = now;
      forRefusal = true;
    }
    config.listener().paused(key, Duration.ofNanos(probeIn));
    return probeIn;
  }

  /**
   * Pauses the key for the delay an answer names (Retry-After, or the reset of a spent quota).
   *
   * @param window what the key believes of its window: a spent quota's reset that contradicts the
   *     answers that taught it (one wrong reset, 200 days out) pauses only as long as the belief
   *     says, and the call after the pause learns the truth
   * @return whether a pause began (the key was not paused before)
   */
  boolean ask(Answer answer, RateLimitSignals signals, InferredWindow window, long now) {
    Duration pause = signals.retryAfter();
    if (pause == null && answer.quotaSpent() && signals.reset() != null) {
      long reset = window.believedReset(Nanos.of(signals.reset()), now);
      if (signals.window() != null && !InferredWindow.inLine(reset, Nanos.of(signals.window()))) {
        reset = Nanos.of(signals.window()); // a reset far past its own policy's window: the window
      }
      pause = Duration.ofNanos(reset);
    }
    if (pause == null || pause.isZero()) {
      return false;
    }
    if (!answer.holdsBack()) {
      return false; // a Retry-After on a success is advice for redirects and the like, not a pause
    }
    return hold(pause, answer.refused() || answer.overloaded(), answer.status(), now);
  }

  /**
   * Pauses the key for the refill of a count it spent, one the server never says when it refills
   * ({@link CountedBudget}): the ordinary rhythm of such a budget, as a spent quota's reset is.
   *
   * @return whether a pause began
   */
  boolean holdSpent(long refillNanos, long now) {
    return hold(Duration.ofNanos(refillNanos), false, 200, now);
  }

  /**
   * A refusal's body, read after its headers were learnt, named a delay of its own ({@code
   * hint}, from {@code learnedAt}). When the headers' answer set the pause (nothing lengthened it
   * since), the body's figure replaces theirs, shorter too (Discord's body gives the delay to the
   * millisecond, its header rounds it up to whole seconds); otherwise it may only lengthen it,
   * as any answer's delay.
   *
   * @return whether a pause began
   */
  boolean refine(Duration hint, int status, long learnedAt, long now) {
    if (!paused || lastHeldAt != learnedAt || verifying) {
      long left = Nanos.add(learnedAt, Nanos.of(hint)) - now;
      return left > 0 && hold(Duration.ofNanos(left), true, status, now);
    }
    long nanos = Nanos.of(hint);
    until = Nanos.add(learnedAt, nanos);
    probeAt = nanos > maxWaitNanos ? Nanos.add(learnedAt, maxWaitNanos) : Long.MAX_VALUE;
    if (until <= now) {
      end(now);
    } else {
      shared.paused(until - now, true, now); // the fleet lengthens only: a shorter figure stays here
      config.listener().paused(key, hint);
    }
    return false;
  }

  /**
   * Holds back for a pause another instance of the fleet began; not told back to the fleet.
   *
   * @return whether a pause began
   */
  boolean holdForFleet(long pauseNanos, long now) {
    if (paused && Nanos.add(now, pauseNanos) <= until) {
      return false; // already held at least as long: the common case, asked on every step
    }
    boolean began = hold(Duration.ofNanos(pauseNanos), false, 0, now, false);
    if (began) {
      fromFleet = true;
    }
    return began;
  }

  /**
   * The fleet no longer holds the pause this key held for it alone (another instance's probe
   * ended it): this one ends too, rather than wait for a probe of its own.
   *
   * @return whether it ended
   */
  boolean endIfTheFleets(long now) {
    if (!paused || !fromFleet) {
      return false;
    }
    end(now);
    return true;
  }

  /**
   * Backs the key off after a refusal that named no delay (see the class comment).
   *
   * @param discovering whether the key is finding its pace (no advertised rate, a controller)
   * @return whether a pause began
   */
  boolean backOffIfBare(boolean rejected, RateLimitSignals signals, long sentAt, boolean discovering,
      long now) {
    if (!rejected) {
      if (sentAt > lastBareRefusalAt) {
        bareStreakSince = Long.MIN_VALUE; // only a call sent since the last refusal says the limiter let go
      }
      return false;
    }
    boolean namedADelay = (signals.retryAfter() != null && !signals.retryAfter().isZero())
        || (signals.isQuotaSpent() && signals.reset() != null);
    if (namedADelay || sentAt <= lastBareRefusalAt || !discovering) {
      return false;
    }
    lastBareRefusalAt = now;
    if (bareStreakSince == Long.MIN_VALUE) {
      bareStreakSince = now;
    }
    return hold(Duration.ofNanos(bareBackoff(now - bareStreakSince)), true, 429, now);
  }

  /**
   * The pause after a bare refusal, {@code refusedFor} into a run of them: half as long as the
   * run, at least the base and at most the cap. So the probes go at the base, then at 2, 3, 4.5
   * and 6.75 times it from the run's first refusal: a backoff that grows by half each time,
   * anchored at the first refusal rather than at each probe.
   *
   * <p>Why these times. Limiters mostly reopen a whole window after the refusal that shut them
   * (a 1 s window shut at once reopens 1 s later): the probe at twice the base finds a 1 s window
   * open. A sliding rate that counts refused requests too (HAProxy's) reopens a little later:
   * a whole window after the burst it still weighs all of it, and it lets go as that weight
   * decays through the next window. A probe due at 1 s is refused there, and a doubling would
   * wait until 2 s; growing by half it comes back at 1.5 s, when the weight has halved. A probe
   * refused costs the server one request and the key at most half the time it has waited; the
   * price is more probes in a long run (1.7 times the doublings' count to reach the cap).
   */
  private long bareBackoff(long refusedFor) {
    return Math.min(backoffCapNanos, Math.max(backoffBaseNanos, refusedFor / 2));
  }

  private boolean hold(Duration pause, boolean refusal, int status, long now) {
    return hold(pause, refusal, status, now, true);
  }

  /**
   * @param tellFleet whether the pause is this instance's own news, not the fleet's
   * @return whether a pause began
   */
  private boolean hold(Duration pause, boolean refusal, int status, long now, boolean tellFleet) {
    long nanos = Nanos.of(pause);
    long end = Nanos.add(now, nanos);
    if (paused && end <= until) {
      return false;
    }
    if (tellFleet) {
      shared.paused(nanos, refusal, now);
      lastHeldAt = now;
      fromFleet = false;
    }
    boolean began = !paused;
    until = end;
    long probeDue = nanos > maxWaitNanos ? Nanos.add(now, maxWaitNanos) : Long.MAX_VALUE;
    // The fleet's word on a pause held already is the same evidence, read again on every step
    // (its end a little later each time, as Redis heard it later): it must not put the probe off.
    // The fleet decides itself when its pause was renewed (SharedKey#probe).
    probeAt = paused && !tellFleet ? Math.min(probeAt, probeDue) : probeDue;
    if (!paused) {
      paused = true;
      since = now;
      // A spent quota is the ordinary rhythm of a paced key; a refusal is news.
      forRefusal = refusal;
      if (!tellFleet) {
        log.debug("polite: pausing calls to {} for {} (the fleet is paused)", key, pause);
      } else if (refusal) {
        log.info(config.observeOnly() ? "polite (observing): would pause calls to {} for {} (the "
            + "server answered {})" : "polite: pausing calls to {} for {} (the server answered {})",
            key, pause, status);
      } else {
        log.debug("polite: pausing calls to {} for {} (quota spent)", key, pause);
      }
    }
    config.listener().paused(key, pause);
    return began;
  }

  private void end(long now) {
    admitted.excludePause(Math.max(0, now - since));
    paused = false;
    verifying = false;
    refusing = false;
    probeAt = Long.MAX_VALUE;
    if (forRefusal) {
      log.info(config.observeOnly() ? "polite (observing): calls to {} would resume"
          : "polite: calls to {} resume", key);
    } else {
      log.debug("polite: calls to {} resume", key);
    }
    config.listener().resumed(key);
  }

  @Override
  public String toString() {
    return paused ? (refusing ? "refusing" : "paused") + (verifying ? ", verifying" : "") : "";
  }
}
