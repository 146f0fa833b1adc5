package dev.polite.internal.model;

import dev.polite.RateController;
import dev.polite.internal.Nanos;

/**
 * The pace a key finds for itself where its server advertises none: the rate controller's
 * verdicts on the key's refusals and successes, and whether the key is probing one call at a
 * time after a refusal. It decides; {@link KeyModel} applies the pace to the key's bucket.
 *
 * <h2>What a refusal says about the rate</h2>
 * A refusal cuts the pace, and the controller is told what the server actually <em>admitted</em>
 * since the previous cut ({@link AdmittedRate}), not what the key sent: the send rate is exactly
 * what was refused. The burst's calls whose answers come after the refusal's (over many
 * connections some do) were admitted in that time too: each is told to the controller as the
 * rate the cut should have read ({@link RateController#onAdmittedBeforeCut}) and left out of the
 * next one's. From then on one call at a time probes until one succeeds; successes then let
 * the controller climb. Three kinds of refusal are no news about the rate and cut nothing:
 * <ul>
 *   <li>a refusal before the server admitted anything: no rate was shown (a key spent by others
 *       before it began, a limiter that refuses everything); the key probes one call at a time,
 *       spaced by its backoff;
 *   <li>a call already on the wire when the last cut came: the cut answered it;
 *   <li>a refusal within a second of unpaused sending since the last cut (a probe that met a
 *       limiter still counting the last burst: a spent window, a sliding rate). The handful
 *       admitted in that second would read as a tiny rate, and cut the pace to it.
 * </ul>
 * A fleet's refusal, told by another instance, cuts as the key's own would (the server refused
 * the fleet's pace, of which this instance's calls are part), at most once a second.
 *
 * <h2>The bank a silent server showed</h2>
 * A limiter that says nothing of its rate refills while the key is paused: a token bucket of 20 a
 * second with a burst of 20 that refused the 21st call of a burst asks for 1 s (50 ms, rounded up
 * to a whole-second Retry-After), and holds its whole burst again when the second is over; one
 * that names no delay has refilled half of it by the end of the key's first backoff, 0.5 s. A key
 * that resumes at its pace alone leaves that bank unspent: a second of the server's capacity lost
 * to the rounding, 1.25 times the floor for 100 calls at 20 a second. So at the key's first cut
 * it notes what the server took at once beyond the new pace ({@link AdmittedRate#beyondPace}: 20
 * calls in 40 ms is about 20; the same 20 spread over a second, none), and adds the burst's
 * successes whose answers the refusal overtook (over many connections it often does). When the
 * first call sent after the cut (the probe, which goes alone) is admitted, it believes the server
 * banked that much again, but no more than the new pace refills between the cut and the probe,
 * less the probe itself: it spent one of them (counted without it, a 1 s Retry-After's bank and
 * its probe came to 21 where the server held 20, and the 21st was refused for another whole
 * second, at 64 callers on HttpClient 5 one run in three). Those calls go
 * past the pace, and are left out of the rate the next cut reads. They go one at a time, each when
 * the last is answered, as a probe does: a round trip each (milliseconds, where the pace takes
 * 50 ms a call at 20 a second), and a bank the server does not hold costs one refusal, not as
 * many as there were callers.
 *
 * <p>The belief is bounded by its evidence. Only the first cut has any: it follows the key's
 * unpaced start, the one time the key sent faster than its pace, so what the server took at once
 * shows its bank; once paced, the key never sends a burst again, and a later cut's accepts would
 * count the bank's own calls. Only an admitted probe confirms it: a window that the burst spent
 * (a fixed window, a sliding log, HAProxy's sliding rate, which counts every request of its last
 * period, refused ones too) refuses the probe of a 0.5 s backoff, and a burst at its reopening
 * would meet refusals; its bank is never believed. It is spent once, and first: calls that
 * reserved their places at the pace before the probe's answer queue again behind it; and only
 * within the time the pace takes to send as much (a bank spent where a long queue ends would be a
 * burst seconds after the reopening that showed room for it). Any refusal of news drops
 * what is left of it (the server did not bank that much, or the bank is spent), as does an
 * advertised pace. A fleet's key believes none: the bank is the fleet's, not each instance's.
 *
 * <p>Not thread-safe: part of {@link KeyModel}; times are ticker nanoseconds.
 */
final class DiscoveredPace {
  private static final long SECOND = 1_000_000_000L;
  /** The most calls a bank may let go at once: past this a key is discovering nothing. */
  private static final double MOST_BANKED = 1_000;

  private final RateController controller;
  private final AdmittedRate admitted;
  private long lastCutAt = Long.MIN_VALUE;
  /** Since when the last cut counted what the server admitted. */
  private long cutReadFrom = Long.MIN_VALUE;
  /** The rate the last cut was told, with the admissions answered after it added. */
  private double cutRead;
  /** The seconds the last cut's rate was read over. */
  private double cutSpan;
  private boolean probing;
  /**
   * What the server took at once beyond the pace of the first cut, until a probe confirms it; the
   * burst's successes answered after the cut (answers overtake each other) count too.
   */
  private double shown;
  /** Whether the first cut's bank awaits its probe. */
  private boolean awaitingProbe;
  /** What the server banked that may yet go at once, in cost; 0 when nothing is believed. */
  private double bank;
  /**
   * Until when the bank may go: as long as the pace takes to send as much. Past that an even pace
   * would have sent it, and the window the server banked it in may be over; spent later, say at
   * the end of a queue reserved before the probe's answer, it would be a burst the server never
   * showed room for.
   */
  private long bankUntil;
  /** Whether the server has admitted any call of the key's. */
  private boolean anyAdmitted;
  /** Whether it refused one before it admitted any: nothing to cut from, the backoff probes. */
  private boolean refusedFirst;

  /**
   * @param admitted what the server admitted since the last cut; shared with the key's pause,
   *     which takes the time paused out of it
   */
  DiscoveredPace(RateController controller, AdmittedRate admitted) {
    this.controller = controller;
    this.admitted = admitted;
  }

  /** The pace found, in requests per second; infinite while nothing was found (or can be). */
  double rate() {
    return controller.rate();
  }

  /** Whether a pace was found: the controller has cut at least once. */
  boolean found() {
    return !Double.isInfinite(controller.rate());
  }

  /**
   * Whether the key lets one call at a time go: probing after a refusal until one succeeds, or
   * spending a bank.
   */
  boolean oneAtATime() {
    return probing || bank > 0;
  }

  /** The key's first call goes at {@code at}: what the server admits is counted from then. */
  void firstSend(long at) {
    if (!admitted.started()) {
      admitted.restart(at);
    }
  }

  /** The server admitted a call, answered at {@code now}. */
  void admittedOne(long now) {
    anyAdmitted = true;
    admitted.recordAccept(now);
  }

  /**
   * Whether the key was refused before anything was admitted: that cuts nothing ({@link #refused})
   * but is discovery all the same, and a key that discovers its pace backs off.
   */
  boolean refusedFirst() {
    return refusedFirst;
  }

  /** The server advertised a pace: that pace governs, and nothing is probed for or banked. */
  void advertised() {
    probing = false;
    dropBank();
  }

  /** The server showed a window, which governs from now: what it banked is that window's. */
  void windowShown() {
    dropBank();
  }

  /** What the server banked that may yet go at once past the pace, in cost units. */
  double bank() {
    return bank;
  }

  /**
   * A call of {@code cost} the pace would hold back at {@code now} goes from the bank instead, if
   * it holds that much and its time is not over.
   *
   * @return whether it goes now
   */
  boolean spendBank(double cost, long now) {
    if (bank < cost || now > bankUntil) {
      // What is left cannot pay for a call, or is no longer the server's: no reason to go one
      // at a time for it.
      bank = 0;
      return false;
    }
    bank -= cost;
    admitted.excludeOne();
    return true;
  }

  /**
   * A refusal of the call sent at {@code sentAt}.
   *
   * @param paced whether the key holds any pace now (a starting pace or one found): without one,
   *     even a refusal soon after the first send is news
   * @param mayBank whether the key may believe a bank (not in a fleet)
   * @return whether it cut the pace ({@link #rate} is the new one)
   */
  boolean refused(long sentAt, boolean paced, boolean mayBank, long now) {
    if (sentAt <= lastCutAt) {
      return false;
    }
    probing = true;
    dropBank();
    if (!anyAdmitted) {
      // Refused before the server took a single call: no rate was shown to cut to. Cut, the
      // controller would fall to its floor (a call in 2 s) and hold every probe that far apart;
      // the bare refusal's backoff spaces them instead, and the first cut waits for a rate.
      refusedFirst = true;
      return false;
    }
    if (!admitted.hasEvidence(now) && paced) {
      return false;
    }
    boolean first = lastCutAt == Long.MIN_VALUE;
    cut(now);
    if (first && mayBank && found()) {
      shown = admitted.beyondPace(rate(), now); // before the count restarts
      awaitingProbe = true;
    }
    admitted.restart(now);
    return true;
  }

  /**
   * A success of the call sent at {@code sentAt}, with the key sending {@code sendRate} calls a
   * second: the controller may climb, and the first cut's probe confirms the bank.
   *
   * @return whether this success was that probe and a bank is now believed
   */
  boolean succeeded(long sentAt, double sendRate, long now) {
    probing = false;
    boolean bankBelieved = false;
    // Sent in the time the last cut read, answered after it: the refusal's answer overtook it.
    boolean overtaken = sentAt <= lastCutAt && sentAt >= cutReadFrom;
    if (overtaken) {
      admittedBeforeTheCut(now);
    }
    if (awaitingProbe) { // the first cut's: it read from the key's first send, so none is older
      if (overtaken) {
        shown++; // one of the burst
      } else { // the probe, at the pace of the cut, before this success climbs it
        // The probe spent one of what the server refilled: the bank is the rest.
        double refilled = rate() * ((sentAt - lastCutAt) / 1e9) - 1;
        bank = Math.max(0, Math.floor(Math.min(MOST_BANKED, Math.min(shown, refilled))));
        bankUntil = Nanos.add(now, (long) (bank / rate() * 1e9)); // the cast saturates
        awaitingProbe = false;
        bankBelieved = bank > 0;
      }
    }
    controller.onSuccess(now, sendRate);
    return bankBelieved;
  }

  /**
   * The fleet's refusal, told by another instance.
   *
   * @return whether it cut the pace: not when a cut is less than a second old, nothing was found
   *     to cut, or too little was admitted since the last cut to say what to cut to
   */
  boolean refusedForFleet(long now) {
    boolean recentCut = lastCutAt != Long.MIN_VALUE && now - lastCutAt < SECOND;
    if (recentCut || !found() || !admitted.hasEvidence(now)) {
      return false;
    }
    dropBank();
    cut(now);
    admitted.restart(now);
    return true;
  }

  /** The bank is not there, or no longer: neither what a probe would confirm nor what is left. */
  private void dropBank() {
    awaitingProbe = false;
    bank = 0;
  }

  /** Asks the controller for a cut from what was admitted since the last; the caller restarts it. */
  private void cut(long now) {
    cutRead = admitted.perSecond(now);
    cutSpan = admitted.spanSeconds(now);
    cutReadFrom = admitted.since();
    controller.onRejection(now, cutRead);
    lastCutAt = now;
  }

  /**
   * A call the last cut counted from was admitted, its answer overtaken by the refusal's: it
   * belongs to the rate the cut read, not to the next one's, so the controller hears the rate
   * the cut should have read. At 16 callers, two or three of a first burst of 20 come back after
   * the refusal: read without them, the pace starts a tenth or more under the server's.
   */
  private void admittedBeforeTheCut(long now) {
    admitted.excludeOne();
    cutRead += 1 / cutSpan;
    controller.onAdmittedBeforeCut(now, cutRead);
  }

  @Override
  public String toString() {
    return (probing ? "probing" : "") + (bank > 0 ? " bank " + bank : "");
  }
}
