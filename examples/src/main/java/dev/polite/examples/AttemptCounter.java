package dev.polite.examples;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import okhttp3.Interceptor;
import okhttp3.Response;

/**
 * Counts what reaches the server. Installed as a <em>network</em> interceptor it sees every
 * attempt, retries included, each time one is about to be written to a connection; an
 * application interceptor would see only the calls, and the clients' retries would hide. This is
 * what makes "requests sent" an honest number for every client alike, polite's own retries too.
 * A request tagged with {@link CallAttempts} also has its own attempts (and their refusals) counted,
 * for the retries and for each URL's share of the refusals.
 *
 * <p>Usage: {@code new OkHttpClient.Builder().addNetworkInterceptor(counter)}
 */
public final class AttemptCounter implements Interceptor {
  private final long startNanos;
  private final List<SentAttempt> attempts = new ArrayList<>();
  private final AtomicLong sent = new AtomicLong();
  private final AtomicLong rejected = new AtomicLong();

  /** @param startNanos the run's start on {@link System#nanoTime()}: attempt times count from it */
  public AttemptCounter(long startNanos) {
    this.startNanos = startNanos;
  }

  @Override
  public Response intercept(Chain chain) throws IOException {
    long sentAt = System.nanoTime() - startNanos;
    sent.incrementAndGet();
    CallAttempts call = chain.request().tag(CallAttempts.class);
    if (call != null) {
      call.sent();
    }
    Response response;
    try {
      response = chain.proceed(chain.request());
    } catch (IOException | RuntimeException e) {
      record(new SentAttempt(sentAt, 0, false));
      throw e;
    }
    boolean rateLimited = RateLimitRejection.is(response);
    if (rateLimited) {
      rejected.incrementAndGet();
      if (call != null) {
        call.rejected();
      }
    }
    record(new SentAttempt(sentAt, response.code(), rateLimited));
    return response;
  }

  /** Attempts put on the wire so far. */
  public long sent() {
    return sent.get();
  }

  /** Rate-limit rejections received so far. */
  public long rejected() {
    return rejected.get();
  }

  /** Every attempt so far, in the order they were sent. */
  public List<SentAttempt> attempts() {
    synchronized (attempts) {
      List<SentAttempt> copy = new ArrayList<>(attempts);
      copy.sort(Comparator.comparingLong(SentAttempt::sentNanos));
      return copy;
    }
  }

  private void record(SentAttempt attempt) {
    synchronized (attempts) {
      attempts.add(attempt);
    }
  }
}
