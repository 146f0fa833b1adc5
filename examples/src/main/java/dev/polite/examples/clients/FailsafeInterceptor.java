package dev.polite.examples.clients;

import dev.failsafe.Failsafe;
import dev.failsafe.FailsafeException;
import dev.failsafe.FailsafeExecutor;
import dev.failsafe.RateLimitExceededException;
import dev.failsafe.RateLimiter;
import dev.failsafe.RetryPolicy;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.math.BigDecimal;
import java.time.Duration;
import okhttp3.Interceptor;
import okhttp3.Request;
import okhttp3.Response;

/**
 * The peer a competent user writes instead of polite, from Failsafe 3's documentation: an
 * application interceptor that runs each call through a {@link RetryPolicy} and, inside it, a
 * smooth {@link RateLimiter} set by hand to the rate the user guessed (a little under the
 * documented limit). It is the strongest do-it-yourself client here: it paces, it honours
 * {@code Retry-After} (delta seconds or an HTTP-date against the answer's {@code Date}), and it
 * backs off with jitter when the server names no delay. What it cannot do is learn: the rate is
 * whatever the user typed, the day the limit changes it is wrong, and a 429 pauses only the call
 * that received it, not the others racing behind it.
 *
 * <p>The rules, as a user would pick them:
 * <ul>
 *   <li>429 and 503 are retried (the server refused before doing any work), I/O errors only for
 *       GET and HEAD (the request may have been processed); 6 attempts in all, as the other peers.
 *   <li>The delay is the server's {@code Retry-After} when it gives one, else exponential
 *       backoff from 0.5 s doubling to at most 30 s. Failsafe jitters every delay by ±25 %,
 *       the {@code withDelayFn} one included (its documentation says so), so the server's delay
 *       is stretched by 4/3 first: the earliest jittered retry then still honours it.
 *   <li>The rate limiter sits inside the retry policy ({@code Failsafe.with(retry, limiter)}:
 *       the first policy is the outermost), so every attempt, retries too, waits for a permit;
 *       a call waits at most 60 s for one (polite's default max wait), else it fails.
 *   <li>A retried answer is closed in {@code onRetry}, just before the next attempt (OkHttp
 *       refuses to proceed while the previous answer is open); the last answer is returned
 *       open, for the caller to read and close.
 * </ul>
 * Only {@link IOException}s leave: Failsafe wraps a checked exception in a
 * {@link FailsafeException}, which is unwrapped here, and a permit not had in time becomes an
 * {@code IOException} too, since anything else crashes OkHttp's async callbacks.
 *
 * <p>Usage: {@code new OkHttpClient.Builder().addInterceptor(new FailsafeInterceptor(90, Duration.ofMinutes(1))).build()}
 */
final class FailsafeInterceptor implements Interceptor {
  /**
   * Attempts in all, the first included, as the other retrying peers ({@link ClientKind#PEER_ATTEMPTS},
   * which names no class of its own: this one is below it; a test holds the two equal).
   */
  public static final int MAX_ATTEMPTS = 6;
  /** How long a call waits for the rate limiter's permit before it fails. */
  public static final Duration MAX_PERMIT_WAIT = Duration.ofSeconds(60);
  private static final double JITTER = 0.25;

  private final FailsafeExecutor<Response> idempotent;
  private final FailsafeExecutor<Response> unsafe;

  /**
   * @param maxExecutions calls allowed per {@code period}, spread evenly (a smooth limiter has no
   *     burst): the user's guess at the limit, such as 90 for a documented 100 per minute
   * @param period the period the guess is stated in
   */
  public FailsafeInterceptor(long maxExecutions, Duration period) {
    if (maxExecutions < 1) {
      throw new IllegalArgumentException("maxExecutions: must be at least 1, was " + maxExecutions);
    }
    if (period == null || period.isNegative() || period.isZero()) {
      throw new IllegalArgumentException("period: must be positive, was " + period);
    }
    // One limiter for every call through this interceptor: the limit is the client's, not a call's.
    RateLimiter<Response> limiter = RateLimiter.<Response>smoothBuilder(maxExecutions, period)
        .withMaxWaitTime(MAX_PERMIT_WAIT)
        .build();
    this.idempotent = Failsafe.with(retryPolicy(true), limiter);
    this.unsafe = Failsafe.with(retryPolicy(false), limiter);
  }

  /**
   * A limiter of {@code ratePerSecond}, as the command line's {@code --rate} gives it (4.5 becomes
   * 45 per 10 s: the same spacing, in whole executions).
   */
  public static FailsafeInterceptor perSecond(double ratePerSecond) {
    if (!(ratePerSecond > 0) || Double.isInfinite(ratePerSecond)) {
      throw new IllegalArgumentException("rate: must be positive and finite, was " + ratePerSecond);
    }
    BigDecimal rate = BigDecimal.valueOf(ratePerSecond);
    int decimals = Math.max(0, Math.min(6, rate.stripTrailingZeros().scale()));
    long seconds = BigDecimal.TEN.pow(decimals).longValueExact();
    long executions = Math.max(1, Math.round(ratePerSecond * seconds));
    return new FailsafeInterceptor(executions, Duration.ofSeconds(seconds));
  }

  private static RetryPolicy<Response> retryPolicy(boolean retryIoErrors) {
    return RetryPolicy.<Response>builder()
        // A bi-predicate replaces Failsafe's default "retry every exception", which would retry
        // a POST whose request may already have been processed.
        .handleIf((response, failure) -> failure == null
            ? response.code() == 429 || response.code() == 503
            : retryIoErrors && failure instanceof IOException)
        .withMaxAttempts(MAX_ATTEMPTS)
        .withBackoff(Duration.ofMillis(500), Duration.ofSeconds(30))
        .withJitter(JITTER)
        .withDelayFn(context -> {
          Response last = context.getLastResult();
          Duration asked = last == null ? Duration.ZERO : RetryAfter.of(last);
          if (asked.isZero()) {
            return Duration.ofNanos(-1); // negative: Failsafe uses the backoff instead
          }
          return Duration.ofNanos((long) Math.ceil(asked.toNanos() / (1 - JITTER)));
        })
        .onRetry(event -> {
          Response retried = event.getLastResult();
          if (retried != null) {
            retried.close();
          }
        })
        .build();
  }

  @Override
  public Response intercept(Chain chain) throws IOException {
    Request request = chain.request();
    FailsafeExecutor<Response> failsafe =
        request.method().equals("GET") || request.method().equals("HEAD") ? idempotent : unsafe;
    try {
      return failsafe.get(() -> chain.proceed(request));
    } catch (RateLimitExceededException e) {
      throw new IOException("no rate limiter permit within " + MAX_PERMIT_WAIT.toSeconds() + " s", e);
    } catch (FailsafeException e) {
      Throwable cause = e.getCause();
      if (cause instanceof IOException) {
        throw (IOException) cause;
      }
      if (cause instanceof InterruptedException) {
        Thread.currentThread().interrupt();
        InterruptedIOException interrupted = new InterruptedIOException("interrupted while waiting to retry");
        interrupted.initCause(cause);
        throw interrupted;
      }
      throw new IOException(e.getMessage(), e);
    }
  }
}
