package dev.polite.internal;

import dev.failsafe.Execution;
import dev.failsafe.RetryPolicy;
import dev.failsafe.RetryPolicyBuilder;
import dev.polite.GiveUpReason;
import dev.polite.RateLimitSignals;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.random.RandomGenerator;
import okhttp3.Request;
import okhttp3.Response;
import org.jspecify.annotations.Nullable;

/**
 * What polite retries, and after how long, expressed as a Failsafe {@link RetryPolicy}.
 *
 * <h2>What is retried</h2>
 * 429 and 503 for every method, and a 403 that is a rate-limit rejection: the server refused
 * before doing any work, so repeating the request cannot do it twice. 502, 504 and I/O errors only
 * for idempotent methods (GET, HEAD, OPTIONS, PUT, DELETE, TRACE) or a request carrying an
 * {@code Idempotency-Key}: the server may have done the work. A server's explicit
 * {@code Stripe-Should-Retry: false} (or {@code x-should-retry}) aborts; {@code true} makes any
 * error answer retryable for a request that may be repeated.
 *
 * <h2>Refusals are not failures</h2>
 * Two Failsafe policies, composed: one for <em>failures</em> (5xx, I/O errors), bounded by
 * {@code maxAttempts}, and one for <em>rate-limit refusals</em> (429, a 403 that reports a spent
 * quota), bounded by {@code maxRateLimitRetries}. A server that is merely limiting has done
 * nothing wrong and will take the call once its limit allows: the wait it asks for (and the key's
 * pace, which the refusal just cut or paused) is what bounds the load, so a refusal is retried
 * whenever the wait fits the call's max wait and deadline, and it draws nothing from the retry
 * budget (the interceptor's rule). A failing server is another matter: there the attempts and
 * the budget stop a storm.
 *
 * <h2>The delay</h2>
 * When the server named a delay (Retry-After, or the reset of a spent quota), the retry waits
 * that long plus a jitter above it of up to a fifth of it (at least the base delay, at most the
 * cap), so that clients told the same instant do not all return in the same millisecond, and
 * never sooner than asked. Otherwise capped exponential backoff with full jitter:
 * {@code uniform(0, min(cap, base * 2^(attempt - 1)))}, AWS's recommendation.
 *
 * <p>Immutable and thread-safe; one per interceptor.
 */
public final class RetryRules {
  private static final Set<String> IDEMPOTENT =
      Set.of("GET", "HEAD", "OPTIONS", "PUT", "DELETE", "TRACE");

  private final RetryPolicy<Attempt> failures;
  private final RetryPolicy<Attempt> refusals;
  private final long baseNanos;
  private final long capNanos;
  private final @Nullable RandomGenerator random;

  /**
   * @param maxAttempts attempts in all while they fail (5xx, I/O errors), the first included
   * @param maxRateLimitRetries retries after rate-limit refusals, per call
   * @param random the jitter's source; null for {@link ThreadLocalRandom}
   */
  public RetryRules(int maxAttempts, int maxRateLimitRetries, Duration base, Duration cap,
      @Nullable RandomGenerator random) {
    this.baseNanos = base.toNanos();
    this.capNanos = cap.toNanos();
    this.random = random;
    this.failures = policyFor(false).withMaxAttempts(maxAttempts).build();
    this.refusals = policyFor(true).withMaxRetries(maxRateLimitRetries).build();
  }

  private RetryPolicyBuilder<Attempt> policyFor(boolean rateLimited) {
    return RetryPolicy.<Attempt>builder()
        .handleResultIf(a -> a.retryable() && a.rateLimited() == rateLimited)
        .abortIf(a -> Boolean.FALSE.equals(a.signals().shouldRetry()))
        .withDelayFn(ctx -> delayAfter(ctx.getLastResult(), ctx.getAttemptCount()));
  }

  /**
   * One call's retries: the Failsafe execution (made on the first retryable attempt; most calls
   * never need one) and the key's retry budget. The interceptor and the zoo's twin both ask it,
   * so the twin runs the interceptor's own rule. Confined to the call's thread.
   */
  public final class CallRetries {
    private final RetryBudget budget;
    private @Nullable Execution<Attempt> execution;

    private CallRetries(RetryBudget budget) {
      this.budget = budget;
    }

    /**
     * Judges an attempt: {@link Next#finish()} with no reason when it is the answer to return, with
     * a reason when polite gives up, or a delay before the next attempt (the caller still checks
     * that the wait fits). Only failures spend the budget: a refusal is bounded by the pace and
     * the wait it asks.
     */
    public Next next(Attempt attempt) {
      if (!attempt.retryable()) {
        budget.onSuccess();
        return Next.DONE;
      }
      if (execution == null) {
        execution = Execution.of(failures, refusals);
      }
      execution.recordResult(attempt);
      if (!attempt.rateLimited() && !budget.onFailureMayRetry() && !execution.isComplete()) {
        return new Next(true, GiveUpReason.BUDGET_EXHAUSTED, Duration.ZERO, 0);
      }
      if (execution.isComplete()) {
        return new Next(true, Boolean.FALSE.equals(attempt.signals().shouldRetry())
            ? GiveUpReason.SERVER_SAID_NO : GiveUpReason.ATTEMPTS_EXHAUSTED, Duration.ZERO, 0);
      }
      return new Next(false, null, execution.getDelay(), execution.getAttemptCount());
    }
  }

  /** The retries of one call against a key with {@code budget}. */
  public CallRetries forCall(RetryBudget budget) {
    return new CallRetries(budget);
  }

  /**
   * What follows an attempt.
   *
   * @param finish whether the call ends with this attempt
   * @param gaveUp why, when it ends without a usable answer; null when the answer is final
   * @param delay the wait before the next attempt, when it does not end
   * @param attempts the attempts so far that asked for a retry
   */
  public record Next(boolean finish, @Nullable GiveUpReason gaveUp, Duration delay, int attempts) {
    static final Next DONE = new Next(true, null, Duration.ZERO, 0);
  }

  /** Judges an answer. */
  public Attempt judge(Request request, Response response, RateLimitSignals signals) {
    return new Attempt(response, null, signals, retryable(request, response.code(), signals));
  }

  /** Judges an I/O error; {@code canceled} calls are never retried. */
  public Attempt judge(Request request, IOException failure, boolean canceled) {
    boolean timeoutOfTheCall = failure instanceof InterruptedIOException
        && !(failure instanceof SocketTimeoutException);
    boolean retryable = !canceled && !timeoutOfTheCall && mayRepeat(request);
    return new Attempt(null, failure, RateLimitSignals.none(), retryable);
  }

  /** Whether sending {@code request} twice is harmless. */
  public static boolean mayRepeat(Request request) {
    return IDEMPOTENT.contains(request.method()) || request.header("Idempotency-Key") != null;
  }

  /** Retryable by status and method; the server's explicit "no" is the policy's abort. */
  private static boolean retryable(Request request, int status, RateLimitSignals signals) {
    if (status == 429 || status == 503 || signals.isRejection()) {
      return true;
    }
    if (status == 502 || status == 504) {
      return mayRepeat(request);
    }
    return Boolean.TRUE.equals(signals.shouldRetry()) && status >= 400 && mayRepeat(request);
  }

  /** The server's delay with jitter above it, or full-jitter backoff; never negative. */
  Duration delayAfter(@Nullable Attempt last, int attempts) {
    long backoff = backoffNanos(Math.max(1, attempts));
    Duration asked = last == null ? null : serverDelay(last.signals());
    if (asked == null) {
      return Duration.ofNanos(uniform(backoff));
    }
    long askedNanos = Patience.saturatedNanos(asked);
    long spread = Math.min(capNanos, Math.max(baseNanos, askedNanos / 5));
    return Duration.ofNanos(Patience.saturatedAdd(askedNanos, uniform(spread)));
  }

  /** The delay the server asked for: Retry-After, or the reset of a spent quota. */
  static @Nullable Duration serverDelay(RateLimitSignals signals) {
    if (signals.retryAfter() != null) {
      return signals.retryAfter();
    }
    return signals.isQuotaSpent() ? signals.reset() : null;
  }

  private long backoffNanos(int attempt) {
    int doublings = Math.min(attempt - 1, 62);
    long grown = baseNanos > (Long.MAX_VALUE >> doublings) ? Long.MAX_VALUE : baseNanos << doublings;
    return Math.min(capNanos, grown);
  }

  private long uniform(long bound) {
    if (bound <= 0) {
      return 0;
    }
    RandomGenerator r = random != null ? random : ThreadLocalRandom.current();
    return (long) (r.nextDouble() * bound);
  }
}
