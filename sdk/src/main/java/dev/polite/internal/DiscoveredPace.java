package dev.polite.internal;

import dev.polite.RateController;

/**
 * The pace a key finds for itself where its server advertises none: the rate controller's
 * verdicts on the key's refusals and successes, and whether the key is probing one call at a
 * time after a refusal. It decides; {@link KeyModel} applies the pace to the key's bucket.
 *
 * <h2>What a refusal says about the rate</h2>
 * A refusal cuts the pace, and the controller is told what the server actually <em>admitted</em>
 * since the previous cut ({@link AdmittedRate}), not what the key sent: the send rate is exactly
 * what was refused. From then on one call at a time probes until one succeeds; successes then let
 * the controller climb. Two kinds of refusal are no news about the rate and cut nothing:
 * <ul>
 *   <li>a call already on the wire when the last cut came: the cut answered it;
 *   <li>a refusal within a second of unpaused sending since the last cut (a probe that met a
 *       limiter still counting the last burst: a spent window, a sliding rate). The handful
 *       admitted in that second would read as a tiny rate, and cut the pace to it.
 * </ul>
 * A fleet's refusal, told by another instance, cuts as the key's own would (the fleet's pace is
 * the sum of its members', and it was the sum that the server refused), at most once a second.
 *
 * <p>Not thread-safe: part of {@link KeyModel}; times are ticker nanoseconds.
 */
final class DiscoveredPace {
  private static final long SECOND = 1_000_000_000L;

  private final RateController controller;
  private final AdmittedRate admitted;
  private long lastCutAt = Long.MIN_VALUE;
  private boolean probing;

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

  /** Whether the key lets one call at a time go, probing after a refusal until one succeeds. */
  boolean probing() {
    return probing;
  }

  /** The key's first call goes at {@code at}: what the server admits is counted from then. */
  void firstSend(long at) {
    if (!admitted.started()) {
      admitted.restart(at);
    }
  }

  /** The server admitted a call, answered at {@code now}. */
  void admittedOne(long now) {
    admitted.recordAccept(now);
  }

  /** The server advertised a pace: that pace governs, and nothing is probed for. */
  void advertised() {
    probing = false;
  }

  /**
   * A refusal of the call sent at {@code sentAt}.
   *
   * @param paced whether the key holds any pace now (a starting pace or one found): without one,
   *     even a refusal soon after the first send is news
   * @return whether it cut the pace ({@link #rate} is the new one)
   */
  boolean refused(long sentAt, boolean paced, long now) {
    if (sentAt <= lastCutAt) {
      return false;
    }
    probing = true;
    if (!admitted.hasEvidence(now) && paced) {
      return false;
    }
    cut(now);
    return true;
  }

  /** A success, with the key sending {@code sendRate} calls a second: the controller may climb. */
  void succeeded(double sendRate, long now) {
    probing = false;
    controller.onSuccess(now, sendRate);
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
    cut(now);
    return true;
  }

  private void cut(long now) {
    controller.onRejection(now, admitted.perSecond(now));
    lastCutAt = now;
    admitted.restart(now);
  }

  @Override
  public String toString() {
    return probing ? "probing" : "";
  }
}
