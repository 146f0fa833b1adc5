package dev.polite.okhttp;

import dev.polite.Exchange;
import dev.polite.Polite;
import dev.polite.PoliteAdapter;
import dev.polite.PoliteBuilder;
import dev.polite.PoliteConfig;
import java.io.IOException;
import java.util.Objects;
import java.util.function.BooleanSupplier;
import okhttp3.Call;
import okhttp3.Interceptor;
import okhttp3.Request;
import okhttp3.Response;
import okio.Timeout;

/**
 * Makes an OkHttp client a polite caller of rate-limited APIs: it paces calls per key, learns
 * each key's limit from the server's headers, pauses a key the server asked to wait, and retries
 * what is safe to retry, never sooner than the server asked. What it decides is polite's core
 * ({@link Polite}, the same on every engine); this interceptor only carries OkHttp's calls to it.
 *
 * <pre>{@code
 * OkHttpClient client = new OkHttpClient.Builder()
 *     .addInterceptor(PoliteInterceptor.create())
 *     .build();
 * }</pre>
 *
 * <h2>Threads</h2>
 * Thread-safe: share one interceptor (and one client) across threads, as OkHttp recommends;
 * keys are shared by every call through it. Waiting blocks the calling thread, or a dispatcher
 * thread for {@code enqueue}d calls, so size the dispatcher for the waits you allow, or make the
 * calls with {@link PoliteCallFactory}, whose {@code enqueue} waits without a thread. A wait ends
 * within a few milliseconds of the call being cancelled or the thread interrupted, with an
 * {@link java.io.InterruptedIOException}. Only {@link IOException}s leave the interceptor, and
 * every answer it does not return is closed; a request whose body is one-shot is never resent.
 * The call's timeout ({@code callTimeout}, or {@code Call.timeout()}) bounds every wait.
 *
 * <p>Add it as an application interceptor ({@code addInterceptor}), so that it sees each call once
 * and its retries go through OkHttp's whole chain.
 */
public final class PoliteInterceptor implements Interceptor, PoliteAdapter {
  private final Polite polite;
  /** Whether a call factory was made over this interceptor: set once, never cleared. */
  private volatile boolean servesFactory;

  private PoliteInterceptor(Polite polite) {
    this.polite = polite;
  }

  /**
   * An interceptor with every default: told nothing about the server.
   *
   * <pre>{@code new OkHttpClient.Builder().addInterceptor(PoliteInterceptor.create()).build()}</pre>
   */
  public static PoliteInterceptor create() {
    return builder().build();
  }

  /**
   * Starts a configuration; every option has a default (see the README's reference).
   *
   * <pre>{@code PoliteInterceptor.builder().maxWait(Duration.ofSeconds(10)).build()}</pre>
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * An interceptor over {@code polite}, sharing its keys with every other adapter over it (a JDK
   * client's, say).
   *
   * <pre>{@code PoliteInterceptor.of(polite)}</pre>
   */
  public static PoliteInterceptor of(Polite polite) {
    return new PoliteInterceptor(Objects.requireNonNull(polite, "polite"));
  }

  /** A builder holding this interceptor's configuration, to derive another (with fresh keys). */
  public Builder toBuilder() {
    return new Builder(polite.config());
  }

  /** The polite caller this interceptor carries OkHttp's calls to; its keys are this one's. */
  @Override
  public Polite polite() {
    return polite;
  }

  @Override
  public Response intercept(Chain chain) throws IOException {
    if (chain.connection() != null) {
      throw new IOException("PoliteInterceptor retries, so it must be added with addInterceptor, "
          + "not addNetworkInterceptor");
    }
    Request request = chain.request();
    // One attempt of a PoliteCallFactory call, sent when its turn came: polite waited and will
    // learn from its answer already. Looked for only once a factory was made over this
    // interceptor's client, since on OkHttp 5 the lookup itself allocates (a Kotlin class
    // reference for the tag's key).
    if (servesFactory && request.tag(Handoff.class) != null) {
      return chain.proceed(request);
    }
    ChainAttempts attempts = new ChainAttempts(chain);
    return polite.call(attempts, timeoutLeft(chain.call()), attempts, attempts);
  }

  /**
   * A {@link PoliteCallFactory} was made over this interceptor's client: from now on its calls'
   * attempts come tagged, so every call looks for the tag.
   */
  void servesFactory() {
    servesFactory = true;
  }

  /**
   * The nanoseconds {@code call} has left by its OkHttp timeout, or {@link Long#MAX_VALUE} for
   * none. The interceptor runs as the call starts, when OkHttp has just armed its call timeout.
   */
  static long timeoutLeft(Call call) {
    return timeoutLeft(call.timeout());
  }

  /** As {@link #timeoutLeft(Call)}, of a call's {@code timeout} as it starts. */
  static long timeoutLeft(Timeout timeout) {
    long left = Long.MAX_VALUE;
    if (timeout.timeoutNanos() > 0) {
      left = timeout.timeoutNanos();
    }
    if (timeout.hasDeadline()) {
      left = Math.min(left, Math.max(0, timeout.deadlineNanoTime() - System.nanoTime()));
    }
    return left;
  }

  @Override
  public String toString() {
    return "PoliteInterceptor{" + polite.config() + '}';
  }

  /**
   * A call as polite sees it (its request's view), its attempts down the rest of OkHttp's chain,
   * each judged as it comes back and closed when polite does not keep it, and whether the call
   * was cancelled: one object per call, the interceptor's only one.
   */
  private static final class ChainAttempts extends OkHttpRequestView
      implements Exchange<Response>, BooleanSupplier {
    private final Chain chain;

    ChainAttempts(Chain chain) {
      this.chain = chain;
    }

    @Override
    public Request request() {
      return chain.request();
    }

    @Override
    public Response send(Judge judge) throws IOException {
      Response response = chain.proceed(chain.request());
      judge.keep(OkHttpResponseView.of(response));
      return response;
    }

    @Override
    public void discard(Response response) {
      response.close();
    }

    @Override
    public boolean getAsBoolean() {
      return chain.call().isCanceled();
    }
  }

  /**
   * Configures a {@link PoliteInterceptor}: every option of {@link PoliteBuilder}. Not
   * thread-safe; the interceptor it builds is.
   *
   * <pre>{@code
   * PoliteInterceptor polite = PoliteInterceptor.builder()
   *     .key(RateLimitKey.header("X-Api-Key"))
   *     .maxAttempts(5)
   *     .build();
   * }</pre>
   */
  public static final class Builder extends PoliteBuilder<Builder> {
    private Builder() {}

    private Builder(PoliteConfig config) {
      super(config);
    }

    /** The interceptor; each has its own keys, and its own copy of this configuration. */
    public PoliteInterceptor build() {
      return new PoliteInterceptor(buildPolite());
    }
  }
}
