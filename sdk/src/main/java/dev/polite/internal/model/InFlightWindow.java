package dev.polite.internal.model;

/**
 * How many of one key's calls may be in flight at once: the gate's window, kept apart from the
 * pace, because some limits are not rates at all but caps on calls in flight (Stripe's
 * concurrency limiter, GitHub's secondary limits, a server with N workers).
 *
 * <h2>Before anything is known: slow start</h2>
 * One call until the key's first answer (when cautious), then a window that grows with every
 * answer that is not a refusal: by one per answer while it is under {@value #SLOW_START_THRESHOLD}
 * (doubling each round trip) and by {@code 1 / window} after (one per round trip), TCP's slow
 * start and congestion avoidance, for as long as the server has said nothing about its limit, so
 * that 64 callers cannot blow through a limit nobody has seen yet. Once the server advertises a
 * rate, the window goes on doubling every round trip with no threshold: the pace governs, and the
 * window only keeps a cap on calls in flight, if there is one, from being met by 64 calls at once
 * (against two slots, the first overflow is the window then: two or three calls, not 62). A rate
 * refusal with no cap learned opens the gate: the pace then governs alone.
 *
 * <h2>A cap on calls in flight</h2>
 * A refusal that the key's pace cannot explain (see {@link Answer#refusedInFlight}) that comes
 * back while {@code k} other calls are still on the wire says the server holds at most {@code k}:
 * they were in its hands when it refused (a refusal comes back sooner than the work it refused
 * would have taken). The window becomes {@code max(1, k)}, the cap. The count when the refused call
 * went says less: with several calls granted at once, the order they reach the server in is not
 * the order they were granted in. Refusals of calls already on the wire when the window shrank met
 * the same overflow: each may only lower the cap, since the last of them to come back counts only
 * the calls the server kept. Like every belief the key holds, the cap is re-verified: after {@code hold} answers
 * that went with the window full, the window tries one more call in flight, then two, four...
 * while they succeed (a cap learned wrong grows back in a few rounds, not one call at a time); a
 * probe refused again halves nothing but multiplies the hold by 8 (16 answers at first, at most
 * {@value #MAX_HOLD}), so a true cap of 2 costs one refusal per ever longer run of calls. A
 * refusal that says the cap is lower than the one held is believed when a second says so before
 * a success contradicts it: a server that counts a call until its answer is written refuses the
 * call sent the moment that answer arrived, and one such race must not halve the window. A lower
 * cap so believed starts its hold afresh, the old cap's longer hold not being its evidence.
 * Successes never raise the cap by themselves: a call counted in flight here may already be done
 * at the server, its answer on its way, so a count of successes in flight can run one over.
 *
 * <h2>A cap from refusals that say nothing</h2>
 * An LLM gateway's concurrency limit answers a bare 429, as a rate limiter without headers does.
 * Read as the pace's, such a refusal cut a key with two slots to a few calls a second that climbed
 * for the rest of the run (six to eight times the floor). So, while the key knows no pace, a bare
 * refusal with calls on the wire is first taken for a cap ({@link KeyModel}): the window becomes
 * the calls still on the wire, but the first call after it goes alone, once those are answered.
 * A cap lets it through, and the window opens to the cap. A rate limiter refuses it, with no
 * other call on the wire to blame: the guess is dropped ({@link #trialRefused}), and the refusal
 * is the pace's, as before. The price against a rate limiter: that one call, once per key.
 *
 * <p>Not thread-safe: part of {@link KeyModel}.
 */
final class InFlightWindow {
  /** Up to this many calls in flight the window doubles every round trip; past it, grows by one. */
  private static final int SLOW_START_THRESHOLD = 3;
  private static final int MAX_WINDOW = 1 << 20;
  private static final int FIRST_HOLD = 16;
  private static final int MAX_HOLD = 1024;

  private double window = 1;
  private boolean open;
  private int cap;
  private int hold = FIRST_HOLD;
  private int fullAnswers;
  private int step = 1;
  private long shrunkAt = Long.MIN_VALUE;
  /** A cap below the one held that one refusal said, believed when another says it: 0 for none. */
  private int lowerCandidate;
  /** Whether the cap is a bare refusal's guess on trial: one call at a time until a success. */
  private boolean onTrial;

  /** @param cautious whether the first call goes alone (else the gate starts open) */
  InFlightWindow(boolean cautious) {
    this.open = !cautious;
  }

  /** How many calls may be in flight now, when no probe holds the key to one. */
  int allowed() {
    return open ? Integer.MAX_VALUE : (int) window;
  }

  /** The cap on calls in flight that refusals taught, 0 when none. */
  int cap() {
    return cap;
  }

  /**
   * Learns from one answer.
   *
   * @param othersOnTheWire the key's other calls on the wire when this one went
   * @param stillOnTheWire the key's calls on the wire when this answer came, this one not counted
   * @param sentAt when this one went
   * @param advertised whether the server has advertised the key's rate
   * @param instances the fleet's instances (1 alone): each grows the slow start by its share, so
   *     that the fleet's window together grows as one instance's would, and the first refusal
   *     meets one window's calls, not many
   */
  void onAnswer(Answer answer, int othersOnTheWire, int stillOnTheWire, long sentAt,
      boolean advertised, int instances, long now) {
    onAnswer(answer, othersOnTheWire, stillOnTheWire, sentAt, advertised, instances, false, now);
  }

  /**
   * As above; {@code bare} when a refusal of calls in flight reported nothing at all: the cap it
   * says is a guess, tried one call at a time until a success (see the class comment).
   */
  void onAnswer(Answer answer, int othersOnTheWire, int stillOnTheWire, long sentAt,
      boolean advertised, int instances, boolean bare, long now) {
    if (answer.refusedInFlight()) {
      boolean guess = bare && (cap == 0 || onTrial);
      shrink(stillOnTheWire, sentAt, now);
      if (guess) {
        onTrial = true; // the calls on the wire may lower the guess; its trial is one call still
        window = 1;
      }
    } else if (answer.refused()) {
      if (cap == 0) {
        open = true; // the pace governs from here
      }
    } else if (answer.admitted()) {
      grow(othersOnTheWire, sentAt, advertised, instances);
    }
  }

  private void shrink(int stillOnTheWire, long sentAt, long now) {
    int proposed = Math.max(1, stillOnTheWire);
    if (sentAt <= shrunkAt) {
      // Already on the wire when the window shrank: the same overflow. Its count may only lower
      // the cap it taught, towards the calls the server kept while it refused them all.
      if (proposed < cap) {
        cap = proposed;
        window = cap;
      }
      return;
    }
    if (cap > 0 && proposed < cap) {
      // Refused within the cap held: a call sent the moment an answer freed its place can reach
      // a server that has not yet let that place go. One such refusal says little; a second
      // (before a success shows the held cap at work) lowers the cap, to the higher of the two.
      if (lowerCandidate == 0) {
        lowerCandidate = proposed;
        return;
      }
      proposed = Math.max(proposed, lowerCandidate);
    }
    lowerCandidate = 0;
    if (proposed < cap) {
      // A lower cap is a new belief with its own two refusals for evidence, not the old cap's
      // confirmed runs: it is re-verified as soon as a first cap is. Kept, the hold the old cap
      // earned (128 answers after one refused probe) would hold a cap of 1 that two races taught
      // for longer than most runs: 100 calls at half a 2-slot server's floor.
      hold = FIRST_HOLD;
    } else if (cap > 0 && window > cap) {
      // A probe past the cap was refused: the cap held again, so probe far less often. Each
      // refused probe costs its call the server's Retry-After (a second, typically): after 16
      // answers, then 128, then every 1,024, it is one call in a thousand once the cap is sure.
      hold = Math.min(MAX_HOLD, hold * 8);
    }
    cap = proposed;
    window = cap;
    open = false;
    step = 1;
    fullAnswers = 0;
    shrunkAt = now;
  }

  /**
   * A guess on trial was wrong: its one call was refused with no other on the wire, so the pace,
   * not a cap, refuses. The guess is forgotten and the window opens, as after any rate refusal.
   */
  void trialRefused() {
    if (onTrial) {
      onTrial = false;
      cap = 0;
      open = true;
    }
  }

  private void grow(int othersOnTheWire, long sentAt, boolean advertised, int instances) {
    if (onTrial) {
      if (sentAt > shrunkAt) {
        onTrial = false; // the server took a call sent with the guess held: the cap is believed
        window = cap;
      }
      return;
    }
    if (open || window >= MAX_WINDOW) {
      return;
    }
    int inFlight = othersOnTheWire + 1;
    if (lowerCandidate > 0 && inFlight > lowerCandidate) {
      lowerCandidate = 0; // the server took more at once than the lower cap allows
    }
    if (cap == 0) {
      // Slow start, then (while the server says nothing) congestion avoidance; see the class comment.
      window += (advertised || window < SLOW_START_THRESHOLD ? 1 : 1 / window) / instances;
      return;
    }
    if (inFlight >= (int) window && ++fullAnswers >= hold) {
      window = Math.min(MAX_WINDOW, window + step);
      step = Math.min(step * 2, MAX_WINDOW);
      fullAnswers = 0;
    }
  }

  @Override
  public String toString() {
    return open ? "" : "window=" + (int) window + (cap > 0 ? " cap=" + cap : "");
  }
}
