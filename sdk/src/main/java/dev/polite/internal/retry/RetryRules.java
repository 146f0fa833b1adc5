package dev.polite.internal.retry;

import dev.failsafe.Execution;
import dev.failsafe.RetryPolicy;
import dev.failsafe.spi.FailurePolicy;
import dev.polite.GiveUpReason;
import dev.polite.PoliteConfig;
import dev.polite.RateLimitSignals;
import dev.polite.RequestView;
import dev.polite.ResponseView;
import dev.polite.internal.Nanos;
import dev.polite.internal.headers.RetryAfter;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.LongPredicate;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;
import org.jspecify.annotations.Nullable;

/**
 * What polite retries, and after how long: the one owner of the decision that follows an
 * attempt (finish, give up and why, or wait how long).
 *
 * <h2>Three kinds of outcome</h2>
 * <ul>
 *   <li><b>Refusals</b> (429, a 403 that reports a spent quota) are not failures: the server did
 *       no work and will take the call once its limit allows. They are retried, for every method,
 *       up to {@code maxRateLimitRetries} per call and whenever the wait fits, and they draw
 *       nothing from the retry budget: the wait the server asks for, and the key's pace (which
 *       the refusal just cut or paused), bound the load.
 *   <li><b>Failures</b> are whatever the failure policy handles: a Failsafe {@link RetryPolicy}
 *       over {@link dev.polite.ResponseView} and exceptions, the user's own or polite's default (502, 503, 504,
 *       an error answer carrying the server's explicit {@code Stripe-Should-Retry: true} or
 *       {@code x-should-retry: true}, and I/O errors; {@code maxAttempts} attempts; full-jitter
 *       backoff). Failsafe judges which outcomes fail, counts attempts, applies the policy's
 *       limits and aborts, and computes its delay: what it does well. Failures also spend the
 *       key's retry budget, which stops a storm against a failing server.
 *   <li>Everything else is the <b>answer</b>.
 * </ul>
 *
 * <h2>Safety comes first</h2>
 * Whatever the policy says, a failure that may have done the server's work (an I/O error, any
 * 5xx but 503) is repeated only for an idempotent method (GET, HEAD, OPTIONS, PUT, DELETE,
 * TRACE) or a request carrying an {@code Idempotency-Key}; the server's explicit
 * {@code Stripe-Should-Retry: false} ends the call; a cancelled call and the call's own timeout
 * are never retried.
 *
 * <h2>The delay</h2>
 * When the server named a delay (Retry-After, or the reset of a spent quota), the retry waits
 * that long plus a jitter above it of up to a fifth of it (at least the base delay, at most the
 * cap), so that clients told the same instant do not all return in the same millisecond, and
 * never sooner than asked. No jitter when the key is itself paused that long: its pause and
 * bucket already space every call waiting on it, the retry among them, and the others go as the
 * pause ends. Otherwise: for a failure, the policy's delay (by default capped
 * exponential backoff with full jitter, {@code uniform(0, min(cap, base * 2^(attempt - 1)))},
 * AWS's recommendation); for a refusal that named no delay, the key's own hold while it holds
 * every call back (its backoff pause, or its pace, which space the calls it releases), else that
 * same jittered backoff.
 *
 * <p>Immutable and thread-safe; one per interceptor.
 */
public final class RetryRules {
  private static final Set<String> IDEMPOTENT =
      Set.of("GET", "HEAD", "OPTIONS", "PUT", "DELETE", "TRACE");

  private final RetryPolicy<ResponseView> failures;
  private final int maxRateLimitRetries;
  private final long baseNanos;
  private final long capNanos;
  private final @Nullable RandomGenerator random;

  /** The rules {@code config} asks for. */
  public RetryRules(PoliteConfig config) {
    this.baseNanos = config.backoffBase().toNanos();
    this.capNanos = config.backoffCap().toNanos();
    this.random = config.random();
    this.maxRateLimitRetries = config.maxRateLimitRetries();
    RetryPolicy<ResponseView> own = config.failureRetries();
    this.failures = own != null ? own : defaultFailures(config.maxAttempts());
  }

  private RetryPolicy<ResponseView> defaultFailures(int maxAttempts) {
    return RetryPolicy.<ResponseView>builder()
        .handle(IOException.class)
        .handleResultIf(r -> r.status() == 502 || r.status() == 503 || r.status() == 504
            || (r.status() >= 400 && Boolean.TRUE.equals(RetryAfter.shouldRetry(r.headers()))))
        .withMaxAttempts(maxAttempts)
        .withDelayFn(ctx -> Duration.ofNanos(uniform(backoffNanos(ctx.getAttemptCount()))))
        .build();
  }

  /** Judges an answer known at {@code at}. */
  public Attempt judge(RequestView request, ResponseView response, RateLimitSignals signals, long at) {
    return new Attempt(response, null, signals, retryable(request, response, signals), at);
  }

  /**
   * Whether an answer is worth a retry: a refusal, or a failure the policy handles that the
   * request may be repeated after; never for a body that cannot be sent again.
   */
  public boolean retryable(RequestView request, ResponseView response, RateLimitSignals signals) {
    return request.bodyRepeatable() && (Attempt.isRefusal(response, signals)
        || (isFailure(response, null) && (response.status() == 503 || mayRepeat(request))));
  }

  /** Judges an I/O error known at {@code at}; {@code canceled} calls are never retried. */
  public Attempt judge(RequestView request, IOException failure, boolean canceled, long at) {
    boolean timeoutOfTheCall = failure instanceof InterruptedIOException
        && !(failure instanceof SocketTimeoutException);
    boolean retryable = !canceled && !timeoutOfTheCall && mayRepeat(request)
        && request.bodyRepeatable() && isFailure(null, failure);
    return new Attempt(null, failure, RateLimitSignals.none(), retryable, at);
  }

  /** Whether the failure policy handles the outcome, by Failsafe's own rule. */
  @SuppressWarnings("unchecked")
  private boolean isFailure(@Nullable ResponseView response, @Nullable Throwable failure) {
    return failures instanceof FailurePolicy
        ? ((FailurePolicy<ResponseView>) failures).isFailure(response, failure)
        : response == null; // a policy Failsafe did not build: retry I/O errors only
  }

  /** Whether sending {@code request} twice is harmless. */
  public static boolean mayRepeat(RequestView request) {
    return IDEMPOTENT.contains(request.method()) || request.header("Idempotency-Key") != null;
  }

  /** The retries of one call against a key with {@code budget}. */
  public CallRetries forCall(RetryBudget budget) {
    return new CallRetries(budget);
  }

  /**
   * One call's retries: its refusals, its Failsafe execution (made on its first failure; most
   * calls never need one) and the key's retry budget. The interceptor and the zoo's twin both
   * ask it, so the twin runs the interceptor's own rule. Confined to the call's thread.
   */
  public final class CallRetries {
    private final RetryBudget budget;
    private @Nullable Execution<ResponseView> execution;
    private int refusals;

    private CallRetries(RetryBudget budget) {
      this.budget = budget;
    }

    /**
     * What follows an attempt that is not {@link Attempt#retryable()}: its answer is returned,
     * and the key's retry budget earns its share. {@link #next} answers the same for such an
     * attempt; a caller that knows it has one asks this, and makes nothing to ask the key with.
     */
    public Next done() {
      budget.onSuccess();
      return Next.DONE;
    }

    /**
     * What follows {@code attempt}: {@link Next#finish()} with no reason when it is the answer to
     * return, with a reason when polite gives up, or the delay before the next attempt.
     *
     * @param keyWaitNanos how long the key would make the next attempt wait for its turn, from
     *     {@link Attempt#at()}; asked only when a retry is due, so an answer costs no look at
     *     the key
     * @param fits whether the call may still wait so many nanoseconds from {@link Attempt#at()}
     *     (its max wait and deadline)
     */
    public Next next(Attempt attempt, LongSupplier keyWaitNanos, LongPredicate fits) {
      if (!attempt.retryable()) {
        return done();
      }
      if (Boolean.FALSE.equals(attempt.signals().shouldRetry())) {
        return giveUp(GiveUpReason.SERVER_SAID_NO, Duration.ZERO);
      }
      Duration delay;
      int attempts;
      if (attempt.rateLimited()) {
        if (++refusals > maxRateLimitRetries) {
          return giveUp(GiveUpReason.ATTEMPTS_EXHAUSTED, Duration.ZERO);
        }
        attempts = refusals;
        delay = serverDelayOr(attempt, keyWaitNanos, () -> bareRefusalDelay(refusals, keyWaitNanos));
      } else {
        if (execution == null) {
          execution = Execution.of(failures);
        }
        execution.record(attempt.response(), attempt.failure());
        boolean budgetAllows = budget.onFailureMayRetry(); // every failure pays, the last one too
        if (execution.isComplete()) {
          return giveUp(GiveUpReason.ATTEMPTS_EXHAUSTED, Duration.ZERO);
        }
        if (!budgetAllows) {
          return giveUp(GiveUpReason.BUDGET_EXHAUSTED, Duration.ZERO);
        }
        attempts = execution.getAttemptCount();
        Execution<ResponseView> e = execution;
        delay = serverDelayOr(attempt, keyWaitNanos, e::getDelay);
      }
      long needed = Math.max(delay.toNanos(), keyWaitNanos.getAsLong());
      if (!fits.test(needed)) {
        return giveUp(GiveUpReason.WAIT_TOO_LONG, Duration.ofNanos(needed));
      }
      return new Next(false, null, delay, attempts);
    }
  }

  private static Next giveUp(GiveUpReason reason, Duration needed) {
    return new Next(true, reason, needed, 0);
  }

  /**
   * What follows an attempt.
   *
   * @param finish whether the call ends with this attempt
   * @param gaveUp why, when it ends without a usable answer; null when the answer is final
   * @param delay the wait before the next attempt; when giving up for
   *     {@link GiveUpReason#WAIT_TOO_LONG}, the wait that did not fit
   * @param attempts the retries of this kind so far (refusals, or failed attempts)
   */
  public record Next(boolean finish, @Nullable GiveUpReason gaveUp, Duration delay, int attempts) {
    /** The answer is the call's: no retry, no give-up. */
    public static final Next DONE = new Next(true, null, Duration.ZERO, 0);
  }

  private Duration serverDelayOr(Attempt attempt, LongSupplier keyWaitNanos,
      Supplier<Duration> otherwise) {
    Duration asked = serverDelay(attempt.signals());
    if (asked == null) {
      return otherwise.get();
    }
    long askedNanos = Nanos.of(asked);
    if (keyWaitNanos.getAsLong() >= askedNanos) {
      // The key itself holds every call back that long: when its pause ends, the calls waiting
      // on it go at once, paced by its bucket, and a jitter would only put this one behind them.
      return asked;
    }
    long spread = Math.min(capNanos, Math.max(baseNanos, askedNanos / 5));
    return Duration.ofNanos(Nanos.add(askedNanos, uniform(spread)));
  }

  /**
   * The delay after a refusal that named none. While the key holds every call back (the backoff
   * it paused for, or its pace), that hold is the backoff: it ends for every waiting call at
   * once and the key's bucket spaces them, this one among them, so a jitter on top would only put
   * this call behind the others. A key that holds nothing back (a controller that discovers
   * nothing) leaves the spreading to the jittered backoff.
   */
  private Duration bareRefusalDelay(int refusals, LongSupplier keyWaitNanos) {
    return keyWaitNanos.getAsLong() > 0 ? Duration.ZERO : Duration.ofNanos(uniform(backoffNanos(refusals)));
  }

  /**
   * The delay the server asked for: Retry-After, or the reset of a spent quota. A Retry-After of 0
   * on a refusal names no time ("not now, but now"): the refusal is bare, and is spaced as one.
   */
  static @Nullable Duration serverDelay(RateLimitSignals signals) {
    Duration retryAfter = signals.retryAfter();
    if (retryAfter != null) {
      return retryAfter.isZero() && signals.isRejection() ? null : retryAfter;
    }
    return signals.isQuotaSpent() ? signals.reset() : null;
  }

  private long backoffNanos(int attempt) {
    return Nanos.doubled(baseNanos, attempt - 1, capNanos);
  }

  private long uniform(long bound) {
    if (bound <= 0) {
      return 0;
    }
    RandomGenerator r = random != null ? random : ThreadLocalRandom.current();
    return (long) (r.nextDouble() * bound);
  }
}
