package dev.polite.okhttp;

import dev.polite.Scheduler;
import java.util.List;
import java.util.Objects;
import okhttp3.Call;
import okhttp3.Interceptor;
import okhttp3.OkHttpClient;
import okhttp3.Request;

/**
 * Makes calls through a client with a {@link PoliteInterceptor} whose {@code enqueue} waits
 * without holding a thread. An interceptor can only wait by blocking the thread it runs on, and
 * for an {@code enqueue}d call that is one of OkHttp's dispatcher threads, held for the whole
 * wait: 500 calls queued behind a 5-per-second limit would park 500 threads. A call from this
 * factory instead asks its key, without waiting, when it may go, and a {@link Scheduler} runs it
 * then: only then does OkHttp's dispatcher get it. A retry after a 429 or a failure is scheduled
 * the same way.
 *
 * <pre>{@code
 * OkHttpClient client = new OkHttpClient.Builder().addInterceptor(PoliteInterceptor.create()).build();
 * Call.Factory calls = PoliteCallFactory.create(client);
 * calls.newCall(request).enqueue(callback);   // no thread waits for the pace
 * }</pre>
 *
 * <h2>One polite, two ways to wait</h2>
 * The factory uses the client's own interceptor: its keys, pacing, learning and retry rules, so
 * the calls made by the factory and those made on the client directly share every key.
 * {@code execute()} runs as a call on the client does (the interceptor waits on the calling
 * thread); {@code enqueue()} takes the same steps towards its permit on the scheduler
 * ({@link dev.polite.Polite#callAsync}, the same run the JDK client's {@code sendAsync} makes).
 *
 * <h2>Calls</h2>
 * A call honours its {@code timeout()} (the client's call timeout by default), counted from
 * {@code enqueue}, over its waits and attempts together, and the interceptor's max wait.
 * Cancelling it while it waits frees its place at once and reports {@code onFailure} with an
 * {@link java.io.InterruptedIOException}, once; cancelling it on the wire cancels the attempt.
 * Callbacks run on OkHttp's dispatcher threads, as OkHttp's own do. Retrofit takes the factory
 * as it is: {@code new Retrofit.Builder().callFactory(calls)}.
 *
 * <p>Thread-safe, and cheap: share one per client.
 */
public final class PoliteCallFactory implements Call.Factory {
  private final OkHttpClient client;
  private final PoliteInterceptor polite;
  private final Scheduler scheduler;

  private PoliteCallFactory(OkHttpClient client, PoliteInterceptor polite, Scheduler scheduler) {
    this.client = client;
    this.polite = polite;
    this.scheduler = scheduler;
  }

  /**
   * Calls through {@code client}, which must have a {@link PoliteInterceptor} among its
   * application interceptors; waits are scheduled on {@link Scheduler#system()}.
   *
   * <pre>{@code Call.Factory calls = PoliteCallFactory.create(client);}</pre>
   *
   * @throws IllegalArgumentException when the client has no PoliteInterceptor, or several
   */
  public static PoliteCallFactory create(OkHttpClient client) {
    return builder(client).build();
  }

  /**
   * Starts a factory over {@code client}, to choose its scheduler.
   *
   * <pre>{@code PoliteCallFactory.builder(client).scheduler(myScheduler).build()}</pre>
   */
  public static Builder builder(OkHttpClient client) {
    return new Builder(Objects.requireNonNull(client, "client"));
  }

  /**
   * A call of {@code request}. When the interceptor only {@linkplain
   * dev.polite.PoliteBuilder#observeOnly observes}, nothing waits, so there is nothing to
   * schedule: the call is the client's own, and its interceptor observes it on the way.
   */
  @Override
  public Call newCall(Request request) {
    Objects.requireNonNull(request, "request");
    return polite.config().observeOnly() ? client.newCall(request) : new PoliteCall(this, client, polite, scheduler, request);
  }

  /**
   * The client the factory was made over; its calls share its dispatcher, pool and keys, and
   * their attempts go through it, tagged with what each hands its interceptor.
   */
  public OkHttpClient client() {
    return client;
  }

  /** The client's interceptor, whose keys the calls share. */
  public PoliteInterceptor interceptor() {
    return polite;
  }

  Scheduler scheduler() {
    return scheduler;
  }

  @Override
  public String toString() {
    return "PoliteCallFactory{" + polite + ", " + scheduler + '}';
  }

  /**
   * Configures a {@link PoliteCallFactory}. Not thread-safe; the factory it builds is.
   *
   * <pre>{@code PoliteCallFactory.builder(client).scheduler(Scheduler.system()).build()}</pre>
   */
  public static final class Builder {
    private final OkHttpClient client;
    private Scheduler scheduler = Scheduler.system();

    private Builder(OkHttpClient client) {
      this.client = client;
    }

    /**
     * What runs the calls when their waits end; it must read the interceptor's ticker. Default
     * {@link Scheduler#system()}; tests pass one on a fake clock.
     */
    public Builder scheduler(Scheduler scheduler) {
      this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
      return this;
    }

    /**
     * The factory.
     *
     * @throws IllegalArgumentException when the client has no PoliteInterceptor among its
     *     application interceptors, or several
     */
    public PoliteCallFactory build() {
      PoliteInterceptor found = null;
      List<Interceptor> interceptors = client.interceptors();
      for (Interceptor interceptor : interceptors) {
        if (interceptor instanceof PoliteInterceptor polite) {
          if (found != null) {
            throw new IllegalArgumentException("the client has two PoliteInterceptors; keep one");
          }
          found = polite;
        }
      }
      if (found == null) {
        throw new IllegalArgumentException("the client has no PoliteInterceptor: add one with "
            + "OkHttpClient.Builder.addInterceptor(PoliteInterceptor.create())");
      }
      found.servesFactory();
      return new PoliteCallFactory(client, found, scheduler);
    }
  }
}
