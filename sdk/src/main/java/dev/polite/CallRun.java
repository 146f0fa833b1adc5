package dev.polite;

import dev.polite.internal.call.Acquisition;
import dev.polite.internal.retry.Attempt;
import dev.polite.internal.call.KeyState;
import dev.polite.internal.Nanos;
import dev.polite.internal.call.Patience;
import dev.polite.internal.model.Permit;
import dev.polite.internal.retry.RetryRules;
import java.io.IOException;
import java.time.Duration;
import java.util.Objects;
import java.util.function.BooleanSupplier;
import org.jspecify.annotations.Nullable;

/**
 * One call's run through polite, on any engine, blocking ({@link #block}) or scheduled
 * ({@link AsyncRun}): the call's context, the budget of its key it spends, its patience (the max
 * wait and its deadline) and its retries; and the decisions around each attempt, taken alike on
 * both paths: whether a permit won is still the right budget's, what an answer teaches the key,
 * whether polite keeps that answer or retries (decided from its status and headers, before its
 * body is read: the run is the attempt's {@link Exchange.Judge}), and how the call ends. Only how
 * a run waits differs: a blocking run sleeps on its thread, a scheduled one between tasks.
 *
 * <h2>After an attempt</h2>
 * {@link #afterAnswer} and {@link #afterFailure} answer {@link #RETURN} (hand the answer to the
 * caller), or the delay before the next attempt (the answer, not kept, is discarded by the
 * caller of this class), or throw what the call ends with.
 *
 * <p>Confined to one call: its thread, or its {@link AsyncRun}'s turns. The judge may run on the
 * engine's thread while the call's own thread waits for the attempt, never beside it.
 */
final class CallRun extends Patience implements BooleanSupplier, Exchange.Judge {
  /** What {@link #afterAnswer} answers when the answer is the call's: hand it over. */
  static final long RETURN = -1;

  private static final int BODY_PEEK_BYTES = 16 * 1024;

  private final Polite polite;
  private final CallContext call;
  /** The call's retries, made at its first answer worth one: most calls never need them. */
  private RetryRules.@Nullable CallRetries retries;
  private final boolean observing;
  private KeyState state;

  // The attempt on the wire: written as it is sent and as it is judged.
  private @Nullable KeyState sentThrough;
  private @Nullable Permit permit;
  private boolean judged;
  private boolean kept;
  private boolean learnt;
  /** The attempt's outcome when it is worth a retry, or failed; null for an answer to return. */
  private @Nullable Attempt attempt;
  private RetryRules.@Nullable Next next;
  private @Nullable Throwable broken;

  /**
   * The run of {@code call}, which {@code canceled} says the caller gave up on, and which ends by
   * ticker time {@code deadline} ({@link Long#MAX_VALUE} for none).
   */
  CallRun(Polite polite, CallContext call, BooleanSupplier canceled, long deadline) {
    // The run is its own patience: one object for the call, not two.
    super(polite.config().ticker(), polite.config().sleeper(), canceled, deadline,
        Nanos.of(polite.config().maxWait()));
    this.polite = polite;
    this.call = call;
    this.state = polite.stateOf(call);
    this.observing = polite.config().observeOnly();
  }

  CallContext call() {
    return call;
  }

  PoliteConfig config() {
    return polite.config();
  }

  /** The state of the budget the call spends, as last looked up. */
  KeyState state() {
    return state;
  }

  Patience patience() {
    return this;
  }

  boolean observing() {
    return observing;
  }

  /** The ticker time the last attempt's outcome was known at. */
  long attemptAt() {
    return Objects.requireNonNull(attempt).at();
  }

  /**
   * The call, to its end, on this thread, once the load shedder let it go: waits for each
   * attempt's permit, sends it through {@code exchange}, and sleeps out the delay before a retry.
   */
  <R> R block(Exchange<R> exchange) throws IOException {
    LoadShedder.Admitted admitted = polite.config().loadShedder().admit(call);
    R response;
    try {
      response = attempts(exchange);
    } catch (IOException e) {
      ended(admitted, null, canceled());
      throw e;
    } catch (RuntimeException | Error e) {
      ended(admitted, null, true);
      throw e;
    }
    ended(admitted, lastAnswer(), false);
    return response;
  }

  /**
   * Tells the load shedder how the call ended. What it throws is ignored: hearing an end must not
   * change it.
   */
  static void ended(LoadShedder.Admitted admitted, @Nullable ResponseView answer, boolean silent) {
    try {
      admitted.ended(answer, silent);
    } catch (RuntimeException ignored) {
      // a shedder's bug is its own; the call has its answer
    }
  }

  /**
   * The answer the call ends with, for the load shedder; null when it ended without one. Known
   * only where a shedder hears it (the run keeps the answers it returns only then).
   */
  @Nullable ResponseView lastAnswer() {
    Attempt last = attempt;
    return last == null ? null : last.response();
  }

  /** The call's attempts, each on its permit, until one ends it. */
  private <R> R attempts(Exchange<R> exchange) throws IOException {
    while (true) {
      KeyState sendThrough;
      Permit granted;
      if (observing) {
        while ((granted = state.observe(call, this)) == null) {
          restate(); // forgotten as the call came: the key's state now
        }
        sendThrough = state;
      } else {
        sendThrough = state;
        granted = sendThrough.acquireNow(call, polite.config().ticker().read());
        if (granted == null) {
          granted = sendThrough.acquire(new Acquisition(call, waited()).movedWhen(this), this);
        }
        if (movedAfter(granted, sendThrough)) {
          continue; // an answer showed, while it waited, that the route spends another budget
        }
      }
      sending(sendThrough, Objects.requireNonNull(granted));
      R response;
      long after;
      try {
        response = exchange.send(this);
      } catch (IOException e) {
        after = afterFailure(e);
        sleep(after, attemptAt());
        continue;
      } catch (RuntimeException | Error e) {
        sendFailed();
        throw e;
      }
      try {
        after = afterAnswer();
      } catch (IOException | RuntimeException | Error e) {
        exchange.discard(response);
        throw e;
      }
      if (after == RETURN) {
        return response;
      }
      exchange.discard(response);
      sleep(after, attemptAt());
    }
  }

  /**
   * Looks the call's budget up again: after its key was forgotten, or an answer showed which of
   * its key's budgets the route spends.
   */
  KeyState restate() {
    state = polite.stateOf(call, state);
    return state;
  }

  /**
   * Whether the call must queue again elsewhere, having been granted {@code permit} (null: it
   * holds none) by {@code granting}: while it waited, an answer showed its route spends another
   * budget of the key, or the key was forgotten. A permit it will not use goes back.
   */
  boolean movedAfter(@Nullable Permit permit, KeyState granting) {
    KeyState spends = polite.stateOf(call, granting);
    if (permit != null && spends != granting) {
      granting.unused(call.cost());
    }
    state = spends;
    return permit == null || spends != granting;
  }

  /**
   * Whether the call now spends another budget of its key than the one it waits at (its state's
   * as last looked up), or its key was forgotten: a blocking wait for a permit then ends, and the
   * call queues again ({@link Acquisition#movedWhen}). The run is itself the check, so that
   * waiting for a permit makes no object to ask it with.
   */
  @Override
  public boolean getAsBoolean() {
    return polite.stateOf(call, state) != state;
  }

  /** An attempt goes to the engine with {@code granted}, which {@code through} let go. */
  void sending(KeyState through, Permit granted) {
    sentThrough = through;
    permit = granted;
    judged = false;
    kept = false;
    learnt = false;
    attempt = null;
    next = null;
    broken = null;
    RequestCost reservation = call.reservation();
    if (reservation != null) {
      reservation.charged(call.cost(), through::settle);
    }
  }

  /**
   * The engine's question, as the attempt's answer arrives: the key learns from it, and the run
   * decides what follows it (kept, when it is the call's answer). Never throws: what goes wrong
   * here (a dialect, a wall clock, a bug) fails the call after the engine returns.
   */
  @Override
  public boolean keep(ResponseView response) {
    if (judged) {
      return kept; // the engine asked twice: the first verdict stands
    }
    judged = true;
    try {
      Attempt answered = learn(response);
      if (answered == null) {
        // The answer to return: its budget earns its share, and nothing is made to weigh a retry
        // (but for a load shedder, which hears what the call ended with).
        Objects.requireNonNull(sentThrough).retryBudget().onSuccess();
        next = RetryRules.Next.DONE;
        kept = true;
        if (polite.config().loadShedder() != LoadShedder.none()) {
          attempt = new Attempt(response, null, RateLimitSignals.none(), false, 0);
        }
      } else if (observing) {
        attempt = answered;
        reportWouldFollow(answered);
        kept = true;
      } else {
        attempt = answered;
        RetryRules.Next then = next(answered);
        next = then;
        kept = then.finish() && !throwsFor(answered, then);
      }
    } catch (RuntimeException | Error e) {
      // Something of the application's (its wall clock, a dialect, a key function) or a bug
      // threw between the answer and its learning: the answer is not returned, and the call's
      // place in flight is given back, or a gate of one stays shut.
      broken = e;
      kept = false;
      if (!learnt) {
        Objects.requireNonNull(sentThrough).onFailure();
      }
    }
    return kept;
  }

  /** Whether giving up after {@code attempt} throws rather than returns it. */
  private boolean throwsFor(Attempt attempt, RetryRules.Next then) {
    return then.gaveUp() != null && attempt.rateLimited()
        && polite.config().throwWhenRateLimited();
  }

  /**
   * What follows the attempt whose answer the engine returned: {@link #RETURN}, or the delay
   * before the next attempt (the answer is then the caller's to discard).
   *
   * @throws IOException what the call ends with instead of the answer (which the caller then
   *     discards): polite gave up on a refusal and throws, or learning from it failed
   */
  long afterAnswer() throws IOException {
    if (!judged) {
      // The engine answered without asking (something before polite in its chain answered): the
      // answer says nothing of the server, and the permit was never used.
      judged = true;
      Objects.requireNonNull(sentThrough).onFailure();
      return RETURN;
    }
    Throwable failed = broken;
    if (failed != null) {
      if (failed instanceof Error error) {
        throw error;
      }
      throw new IOException("polite: learning from " + RequestView.redacted(call.request())
          + "'s answer failed: " + failed, failed);
    }
    Attempt answered = attempt;
    if (observing || answered == null) {
      return RETURN;
    }
    RetryRules.Next then = Objects.requireNonNull(next);
    if (!then.finish()) {
      return then.delay().toNanos();
    }
    return finish(answered, then);
  }

  /**
   * What follows an attempt the engine failed with {@code failure}: the delay before the next
   * attempt.
   *
   * @throws IOException what the call ends with: {@code failure} itself when it is not worth a
   *     retry (or polite gave up on it), or what the answer that came before it decided
   */
  long afterFailure(IOException failure) throws IOException {
    if (judged) {
      // The answer came, then its body failed (the engine read it after the judge's verdict):
      // the key learnt from the answer already.
      if (kept || broken != null || observing) {
        throw failure;
      }
      return afterAnswer(); // a refusal being discarded: the retry, or the give-up, stands
    }
    judged = true;
    Objects.requireNonNull(sentThrough).onFailure();
    Attempt failed = polite.retryRules().judge(call.request(), failure,
        canceled(), polite.config().ticker().read());
    if (!failed.retryable()) {
      throw failure;
    }
    attempt = failed;
    if (observing) {
      reportWouldFollow(failed);
      throw failure;
    }
    RetryRules.Next then = next(failed);
    if (!then.finish()) {
      return then.delay().toNanos();
    }
    finish(failed, then);
    throw failure; // finish throws a failed attempt's failure; this is never reached
  }

  /** The engine threw something other than an {@link IOException}: the permit goes back. */
  void sendFailed() {
    if (!judged) {
      judged = true;
      Objects.requireNonNull(sentThrough).onFailure();
    }
  }

  /**
   * Learns from an answer to the attempt on the wire, and judges it for the retry rules: its
   * outcome when it is worth a retry; null when it is the answer to return.
   */
  private @Nullable Attempt learn(ResponseView response) {
    KeyState through = Objects.requireNonNull(sentThrough);
    Permit granted = Objects.requireNonNull(permit);
    int status = response.status();
    RateLimitSignals signals = response.fromServer()
        ? polite.headers().parse(status, response.headers(),
            polite.config().wallClock().millis())
        : RateLimitSignals.none();
    KeyState owner = polite.ownerOf(through, call, signals);
    long at = owner == through ? through.onAnswer(status, signals, granted, call)
        : owner.onAnswerSentThrough(through, status, signals, granted, call,
            call.reservation() == null);
    learnt = true;
    if (polite.config().readRetryHintsFromBody() && signals.isRejection()) {
      // After the headers are learnt, so that a body slow to come holds no permit or gate.
      RateLimitSignals withBody = polite.headers().withBody(signals,
          response.header("Content-Type"), response.bodyPrefix(BODY_PEEK_BYTES));
      if (!Objects.equals(withBody.retryAfter(), signals.retryAfter())) {
        owner.onBodyHint(status, withBody, at);
      }
      signals = withBody;
    }
    return polite.retryRules().retryable(call.request(), response, signals)
        ? new Attempt(response, null, signals, true, at) : null;
  }

  /**
   * The call's retries, made when first asked (at its first answer worth a retry), on the retry
   * budget of the key's budget the call spends then.
   */
  private RetryRules.CallRetries retries() {
    RetryRules.CallRetries made = retries;
    if (made == null) {
      made = polite.retryRules().forCall(state.retryBudget());
      retries = made;
    }
    return made;
  }

  /**
   * What follows {@code attempt}, asked of the call's retries on the budget its answer showed;
   * a retry is told to the listener.
   */
  private RetryRules.Next next(Attempt attempt) {
    if (!attempt.retryable()) {
      return retries().done();
    }
    KeyState answered = restate();
    long at = attempt.at();
    RetryRules.Next then = retries().next(attempt, () -> answered.waitEstimate(call.cost(), at),
        needed -> allows(needed, at));
    if (!then.finish()) {
      polite.config().listener().retryScheduled(call, then.attempts(), then.delay());
    }
    return then;
  }

  /**
   * Observation mode: what enforcing would have done after {@code attempt}, asked of the call's
   * retries as {@link #next} asks them, told to the listener instead of done.
   */
  private void reportWouldFollow(Attempt attempt) {
    if (!attempt.retryable()) {
      retries().done();
      return;
    }
    KeyState answered = restate();
    long at = attempt.at();
    RetryRules.Next then = retries().next(attempt, () -> answered.waitEstimate(call.cost(), at),
        needed -> allows(needed, at));
    if (!then.finish()) {
      polite.config().listener().wouldRetry(call, then.attempts(), then.delay());
    } else if (then.gaveUp() != null) {
      Duration asked = attempt.signals().retryAfter();
      polite.config().listener().wouldGiveUp(call, then.gaveUp(), asked != null ? asked : then.delay());
    }
  }

  /**
   * Ends the call with {@code attempt}, as {@code then} said it ends: {@link #RETURN} for its
   * answer, or throws its failure, or the give-up's {@link RateLimitedException}.
   */
  private long finish(Attempt attempt, RetryRules.Next then) throws IOException {
    GiveUpReason reason = then.gaveUp();
    if (reason != null) {
      Duration asked = attempt.signals().retryAfter() != null
          ? attempt.signals().retryAfter() : then.delay();
      polite.config().listener().gaveUp(call, reason, asked);
    }
    IOException failure = attempt.failure();
    if (failure != null) {
      throw failure;
    }
    if (throwsFor(attempt, then)) {
      Duration asked = attempt.signals().retryAfter();
      throw new RateLimitedException(call.key(), asked != null ? asked : then.delay(),
          attempt.signals(), "polite: " + call.key() + " answered "
          + Objects.requireNonNull(attempt.response()).status() + " and polite gave up ("
          + reason + ")");
    }
    return RETURN;
  }

  @Override
  public String toString() {
    return "CallRun{" + call + " at " + state.key() + '}';
  }
}
