package dev.polite.examples.clients;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import okhttp3.Interceptor;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import org.jspecify.annotations.Nullable;

/**
 * Counts what reaches the server, and what the client itself sent, as two interceptors that
 * {@link #addTo} installs on one builder. OkHttp sits between them: its
 * {@code RetryAndFollowUpInterceptor} runs below every application interceptor and above every
 * network interceptor, and with {@code retryOnConnectionFailure} (on by default) it sends a
 * request again, by itself, on a new connection when the one it picked fails before an answer.
 *
 * <ul>
 *   <li>The <em>client side</em>, the last application interceptor, sees each attempt the client
 *       makes (polite's, naive's or Failsafe's retries included) once; a request tagged with
 *       {@link CallAttempts} counts them, and its retries are those beyond the first.
 *   <li>The <em>network side</em> sees each exchange OkHttp puts on a connection. An answered one
 *       (any status) reached the server and is {@link #sent()}. A failed one is held until it is
 *       known whether OkHttp sends the request again within the same client attempt: if it does,
 *       the failure is a {@link #connectionRetries() connection retry}, not in {@code sent};
 *       else it was the attempt's last word on the wire (the failure the client sees) and is sent.
 * </ul>
 *
 * <p>Why the split: an HTTP/1.0 server that closes each connection after its answer without
 * saying {@code Connection: close} (Python's {@code http.server}) has OkHttp pool a dead
 * connection, and every next call's first exchange fails on it before the server ever reads it
 * (issue 27: 10 calls counted as 19 sent and 9 retries against a server that saw 10). Such a
 * stale connection is by far the usual cause of OkHttp's re-send; a server that reads a request
 * and then cuts the connection is the rare other one, and those re-sends it did read are still
 * visible, in {@link #connectionRetries()}.
 *
 * <p>Thread-safe; the per-attempt state lives in a request tag, and one attempt's exchanges run
 * one after another on one thread.
 *
 * <p>Usage: {@code AttemptCounter counter = new AttemptCounter(System.nanoTime()); counter.addTo(builder); ... counter.sent();}
 */
public final class AttemptCounter implements WireCount {
  private final long startNanos;
  private final List<SentAttempt> attempts = new ArrayList<>();
  private final AtomicLong sent = new AtomicLong();
  private final AtomicLong rejected = new AtomicLong();
  private final AtomicLong connectionRetries = new AtomicLong();
  private final Interceptor clientSide = this::clientAttempt;
  private final Interceptor networkSide = this::exchange;

  /** @param startNanos the run's start on {@link System#nanoTime()}: attempt times count from it */
  public AttemptCounter(long startNanos) {
    this.startNanos = startNanos;
  }

  /**
   * Adds the client side as the builder's last application interceptor (so call this after the
   * client's own interceptors) and the network side as a network interceptor.
   *
   * @return {@code builder}
   */
  public OkHttpClient.Builder addTo(OkHttpClient.Builder builder) {
    return builder.addInterceptor(clientSide).addNetworkInterceptor(networkSide);
  }

  /**
   * Attempts that reached the server: every exchange answered (any status), and every failed
   * one OkHttp did not send again (the failure its call saw).
   */
  @Override
  public long sent() {
    return sent.get();
  }

  /** Rate-limit rejections received so far. */
  @Override
  public long rejected() {
    return rejected.get();
  }

  /**
   * Exchanges that failed before an answer and that OkHttp then sent again on a new connection by
   * itself: not in {@link #sent()}, and no retry of the client's.
   */
  @Override
  public long connectionRetries() {
    return connectionRetries.get();
  }

  /** Every attempt counted in {@link #sent()}, in the order they were sent. */
  @Override
  public List<SentAttempt> attempts() {
    synchronized (attempts) {
      List<SentAttempt> copy = new ArrayList<>(attempts);
      copy.sort(Comparator.comparingLong(SentAttempt::sentNanos));
      return copy;
    }
  }

  private Response clientAttempt(Interceptor.Chain chain) throws IOException {
    CallAttempts call = chain.request().tag(CallAttempts.class);
    if (call != null) {
      call.attempted();
    }
    ClientAttempt attempt = new ClientAttempt(call);
    // Only OkHttp's own interceptors are below: they keep a request's tags on every exchange.
    Request tagged = chain.request().newBuilder().tag(ClientAttempt.class, attempt).build();
    try {
      return chain.proceed(tagged);
    } finally {
      attempt.settle(); // OkHttp sent nothing after its last failure, so that one stands
    }
  }

  private Response exchange(Interceptor.Chain chain) throws IOException {
    ClientAttempt attempt = chain.request().tag(ClientAttempt.class);
    if (attempt != null) {
      attempt.resent();
    }
    long sentAt = System.nanoTime() - startNanos;
    Response response;
    try {
      response = chain.proceed(chain.request());
    } catch (IOException e) {
      if (attempt != null) {
        attempt.failed(sentAt); // OkHttp may yet send it again: wait and see
      } else {
        countSent(new SentAttempt(sentAt, 0, false)); // no client side to tell: count it
      }
      throw e;
    } catch (RuntimeException e) {
      countSent(new SentAttempt(sentAt, 0, false)); // OkHttp recovers from no such failure
      throw e;
    }
    boolean rateLimited = RateLimitRejection.is(response);
    if (rateLimited) {
      rejected.incrementAndGet();
      CallAttempts call = attempt != null ? attempt.call : chain.request().tag(CallAttempts.class);
      if (call != null) {
        call.rejected();
      }
    }
    countSent(new SentAttempt(sentAt, response.code(), rateLimited));
    return response;
  }

  private void countSent(SentAttempt attempt) {
    sent.incrementAndGet();
    synchronized (attempts) {
      attempts.add(attempt);
    }
  }

  /**
   * One attempt of the client's, as its exchanges see it: the failed exchange not yet counted,
   * if any. Used by one thread at a time (OkHttp runs an attempt's exchanges in turn).
   */
  private final class ClientAttempt {
    final @Nullable CallAttempts call;
    private long failedAt = -1; // when the pending failed exchange was sent, or -1 for none

    ClientAttempt(@Nullable CallAttempts call) {
      this.call = call;
    }

    void failed(long sentAt) {
      failedAt = sentAt;
    }

    /** A new exchange: the failure before it, if any, is one OkHttp sent again. */
    void resent() {
      if (failedAt >= 0) {
        connectionRetries.incrementAndGet();
        failedAt = -1;
      }
    }

    /** The attempt is over: a failure still pending was its last exchange, and was sent. */
    void settle() {
      if (failedAt >= 0) {
        countSent(new SentAttempt(failedAt, 0, false));
        failedAt = -1;
      }
    }
  }
}
