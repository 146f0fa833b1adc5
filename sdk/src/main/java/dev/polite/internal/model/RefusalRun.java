package dev.polite.internal.model;

/**
 * A run of refusals with nothing admitted between them, and whether it shows that the key refuses
 * every call: a broken or blocking limiter, a key locked out, a limiter that answers
 * {@code 429 Retry-After: 0} to everything. Nothing else tells polite so: a refusal spends no retry
 * budget (right for a server that is merely limiting), and a delay the server names, or the
 * backoff after a refusal that names none, is honoured and then tried again, so each call would
 * wait out its whole max wait, refused again and again.
 *
 * <h2>The evidence: promises broken</h2>
 * A limiter that is merely limiting admits the call that honoured what it was told: the first call
 * after the delay it named, or after the key's backoff. So the run counts <em>rounds</em>: a
 * refusal of a call sent after the run's last counted refusal was learnt, which is a call that
 * went only once the key let it (the pause that refusal began had ended, or it began none). The
 * refusals of calls sent before that (a burst already on the wire, the calls a pause released
 * together) are one round: they were all sent on the same evidence. After the refusal that opens
 * the run, {@value #ROUNDS} rounds or more refused over {@link #SPAN} or more, with nothing admitted,
 * say the key refuses everything. A limiter merely limiting breaks a promise now and then (a delay
 * rounded down, a fleet's other instances spending the window first), and one that refuses the
 * calls it should not count (HAProxy's sliding rate) keeps refusing for a while after the burst
 * that shut it; but all of them admit the calls that honour them within a window or two of the
 * common one second. Any admission ends the run.
 *
 * <p>So a key that stops admitting is known as refusing everything in about 2 s, by the fourth
 * round of a bare refusal's backoff (probes at 0.5, 1, 1.5 and 2.25 s of the run, see
 * {@link KeyPause}), a key refused from its very first call too (nothing admitted cuts no pace,
 * see {@link DiscoveredPace}); a run of {@code Retry-After: 1} at its third round, 3 s. The price of
 * the evidence: a key shared with clients polite does not know of, which spend its window before
 * each of its calls three rounds in a row, is taken for one refusing everything until a probe
 * finds it admitting again.
 *
 * <p>Not thread-safe: part of {@link KeyModel}. Times are ticker nanoseconds.
 */
final class RefusalRun {
  /** Rounds refused after the run's first refusal, none admitted, that show a key refusing everything ... */
  static final int ROUNDS = 3;
  /** ... when the run has lasted this long. */
  static final long SPAN = 2_000_000_000L;

  private boolean running;
  private long since;
  private long lastCountedAt;
  private int rounds;
  private int refusals;
  /** Whether the run has shown the key refuses everything. */
  private boolean known;

  /** What an answer adds to the run. */
  enum Step {
    /** Nothing: an answer that is no refusal, or a refusal of a round already counted. */
    NONE,
    /** A round refused: a call that went only once the key let it. */
    ROUND,
    /** The round that completes the evidence: the key refuses everything (once per run). */
    REFUSES_EVERYTHING
  }

  /**
   * Reads an answer to a call sent at {@code sentAt}.
   *
   * @param early the call went early (observation mode), so its refusal proves nothing
   */
  Step onAnswer(Answer answer, long sentAt, boolean early, long now) {
    if (answer.admitted()) {
      running = false;
      return Step.NONE;
    }
    if (!answer.refused() || early) {
      return Step.NONE;
    }
    if (!running) {
      running = true;
      since = now;
      lastCountedAt = now;
      rounds = 0;
      refusals = 1;
      known = false;
      return Step.NONE;
    }
    refusals++;
    if (sentAt <= lastCountedAt) {
      return Step.NONE; // sent before the run's last refusal was known: the same round
    }
    lastCountedAt = now;
    rounds++;
    if (!known && rounds >= ROUNDS && now - since >= SPAN) {
      known = true;
      return Step.REFUSES_EVERYTHING;
    }
    return Step.ROUND;
  }

  /** Whether a run is going on: refusals with none admitted since the first. */
  boolean running() {
    return running;
  }

  /** How long the run has lasted, 0 when none is going on. */
  long length(long now) {
    return running ? Math.max(0, now - since) : 0;
  }

  /** The refusals of the run, every round's. */
  int refusals() {
    return running ? refusals : 0;
  }

  @Override
  public String toString() {
    return running ? "refused " + refusals + " (" + rounds + " rounds)" : "";
  }
}
