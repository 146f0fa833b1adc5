package dev.polite;

import dev.polite.internal.Attempt;
import dev.polite.internal.KeyState;
import dev.polite.internal.Nanos;
import dev.polite.internal.Patience;
import dev.polite.internal.Permit;
import dev.polite.internal.RetryRules;
import java.io.IOException;
import java.util.Objects;
import java.util.function.BooleanSupplier;
import okhttp3.Call;
import okhttp3.Response;
import org.jspecify.annotations.Nullable;

/**
 * One call's run through polite, as the blocking path ({@link PoliteInterceptor#intercept}) and
 * the scheduled one ({@link PoliteCall#enqueue}) both make it: the call's context, the budget of
 * its key it spends, its patience (the max wait and its deadline) and its retries; and the three
 * decisions between its attempts, taken alike on both paths: whether a permit won is still the
 * right budget's, what follows an attempt, and how the call ends. Only how a run waits differs:
 * a blocking run sleeps on its thread, a scheduled one between tasks.
 *
 * <p>Confined to one call: its thread, or its {@link PoliteCall}'s lock.
 */
final class CallRun implements BooleanSupplier {
  private final PoliteInterceptor polite;
  private final CallContext call;
  private final Patience patience;
  private final RetryRules.CallRetries retries;
  private KeyState state;

  /**
   * The run of {@code call} on the OkHttp {@code okCall} (whose cancel and deadline bound its
   * waits), starting at ticker time {@code now}.
   */
  CallRun(PoliteInterceptor polite, CallContext call, @Nullable Call okCall, long now) {
    this.polite = polite;
    this.call = call;
    PoliteConfig config = polite.config();
    this.state = polite.stateOf(call);
    this.patience = new Patience(config.ticker(), config.sleeper(), okCall,
        Patience.deadlineOf(okCall, now), Nanos.of(config.maxWait()));
    this.retries = polite.retryRules().forCall(state.retryBudget());
  }

  CallContext call() {
    return call;
  }

  /** The state of the budget the call spends, as last looked up. */
  KeyState state() {
    return state;
  }

  Patience patience() {
    return patience;
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
   * call queues again ({@link dev.polite.internal.Acquisition#movedWhen}). The run is itself the
   * check, so that waiting for a permit makes no object to ask it with.
   */
  @Override
  public boolean getAsBoolean() {
    return polite.stateOf(call, state) != state;
  }

  /**
   * What follows {@code attempt}, asked of the call's retries on the budget its answer showed;
   * a retry is told to the listener, and the answer it will not return closed.
   */
  RetryRules.Next next(Attempt attempt) {
    return polite.next(retries, attempt, restate(), call, patience);
  }

  /**
   * Observation mode: what enforcing would have done after {@code attempt}, asked of the call's
   * retries as {@link #next} asks them, but nothing is closed or told: the caller reports it.
   */
  RetryRules.Next wouldFollow(Attempt attempt) {
    KeyState answered = restate();
    long at = attempt.at();
    return retries.next(attempt, () -> answered.waitEstimate(call.cost(), at),
        needed -> patience.allows(needed, at));
  }

  /** Ends the call with {@code attempt}, as {@code next} said it ends. */
  Response finish(Attempt attempt, RetryRules.Next next) throws IOException {
    return polite.finish(call, attempt, next.gaveUp(), next.delay());
  }

  /** Closes the answer of an attempt that will not be returned. */
  static void closeQuietly(Attempt attempt) {
    Response response = attempt.response();
    if (response != null) {
      response.close();
    }
  }

  @Override
  public String toString() {
    return "CallRun{" + call + " at " + Objects.toString(state.key()) + '}';
  }
}
