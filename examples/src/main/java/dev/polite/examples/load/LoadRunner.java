package dev.polite.examples.load;

import dev.polite.PoliteListener;
import dev.polite.adaptive.ThrottledLocallyException;
import dev.polite.examples.ProgressLine;
import dev.polite.examples.clients.AttemptCounter;
import dev.polite.examples.clients.CallAttempts;
import dev.polite.examples.clients.ClientKind;
import dev.polite.okhttp.PoliteCallFactory;
import java.io.IOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import okhttp3.Call;
import okhttp3.Callback;
import okhttp3.Dispatcher;
import okhttp3.HttpUrl;
import okhttp3.Interceptor;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import org.jspecify.annotations.Nullable;

/**
 * Sends N GETs through one client, C at a time, and counts what happened. One OkHttpClient is
 * shared by every worker, with the chosen kind's interceptors, as an application would share
 * them: a client's state (polite's learned limit, the paced bucket) is per client, not per call.
 * An {@link AttemptCounter} counts what really reached the server on the network side, and,
 * below the kind's interceptors, each attempt of the client's into the call's own
 * {@link CallAttempts}, so that its retries are counted as its own and OkHttp's silent re-sends on
 * a new connection are neither sent nor retries. A call ends in one of four ways: an answer (2xx is a success), a local drop by an adaptive
 * throttle ({@link ThrottledLocallyException}: never sent), a failure (any other exception), or
 * "the server is not there at all", which stops the run.
 *
 * <p>Given several URLs, call {@code i} goes to URL {@code i mod n}, round robin, so the mix is
 * the same in every run ({@code A, A, A, B} sends three calls in four to A); the result then
 * breaks the calls down per distinct URL ({@link RunResult#urls()}).
 *
 * <p>Usage: {@code RunResult r = new LoadRunner(new OkHttpClient(), ClientKind.POLITE, 4.5, 5).run(url, 30, 1, null);}
 */
public final class LoadRunner {
  private static final long PROGRESS_MILLIS = 100;

  private final OkHttpClient base;
  private final ClientKind kind;
  private final double pacedRate;
  private final double pacedBurst;
  private final PoliteListener listener;
  private final boolean observeOnly;

  /**
   * @param base the client to derive from (its connection pool is shared)
   * @param kind the client to measure
   * @param pacedRate the paced client's rate per second
   * @param pacedBurst the paced client's burst
   */
  public LoadRunner(OkHttpClient base, ClientKind kind, double pacedRate, double pacedBurst) {
    this(base, kind, pacedRate, pacedBurst, PoliteListener.none(), false);
  }

  /**
   * As above, with {@code listener} hearing polite's events, when the kind has polite in it; when
   * {@code observeOnly}, its polite only observes.
   */
  public LoadRunner(OkHttpClient base, ClientKind kind, double pacedRate, double pacedBurst,
      PoliteListener listener, boolean observeOnly) {
    this.listener = listener;
    this.observeOnly = observeOnly;
    this.base = base;
    this.kind = kind;
    this.pacedRate = pacedRate;
    this.pacedBurst = pacedBurst;
  }

  /**
   * Sends {@code requests} GETs to {@code url}, {@code concurrency} at a time, and waits for all.
   * Each call blocks a worker thread ({@code execute()}), as most applications call OkHttp.
   *
   * @param progress a live line to update every 100 ms, or null for none
   * @throws UnreachableException if the server could not be reached at all
   */
  public RunResult run(HttpUrl url, int requests, int concurrency, @Nullable ProgressLine progress)
      throws UnreachableException, InterruptedException {
    return run(url, requests, concurrency, progress, false);
  }

  /**
   * As {@link #run(HttpUrl, int, int, ProgressLine)}, or, when {@code async}, through
   * {@code enqueue} on a {@link PoliteCallFactory} over the client: up to {@code concurrency}
   * calls outstanding, and no thread per call. {@code async} needs a kind with polite in its chain.
   */
  public RunResult run(HttpUrl url, int requests, int concurrency, @Nullable ProgressLine progress,
      boolean async) throws UnreachableException, InterruptedException {
    return run(List.of(url), requests, concurrency, progress, async);
  }

  /**
   * As {@link #run(HttpUrl, int, int, ProgressLine, boolean)}, call {@code i} going to
   * {@code urls.get(i % urls.size())}; with more than one distinct URL, the result has each one's
   * {@link RunResult#urls() breakdown}.
   *
   * @throws IllegalArgumentException if {@code urls} is empty
   */
  public RunResult run(List<HttpUrl> urls, int requests, int concurrency, @Nullable ProgressLine progress,
      boolean async) throws UnreachableException, InterruptedException {
    if (urls.isEmpty()) {
      throw new IllegalArgumentException("urls: at least one is needed");
    }
    long start = System.nanoTime();
    AttemptCounter counter = new AttemptCounter(start);
    Dispatcher dispatcher = new Dispatcher();
    if (!async) {
      // Blocking calls run on the workers' threads; the dispatcher only counts them.
      dispatcher.setMaxRequests(Math.max(64, concurrency));
      dispatcher.setMaxRequestsPerHost(Math.max(5, concurrency));
    } // async: OkHttp's defaults (64, 5 per host) are the threads a user's enqueue gets
    OkHttpClient.Builder builder = base.newBuilder().dispatcher(dispatcher);
    for (Interceptor interceptor : kind.interceptors(pacedRate, pacedBurst, listener, observeOnly)) {
      builder.addInterceptor(interceptor);
    }
    OkHttpClient client = counter.addTo(builder).build(); // after the kind's: it counts their attempts
    Targets targets = new Targets(urls, start);
    Tally tally = new Tally();

    ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(daemon("load-progress"));
    if (progress != null) {
      ticker.scheduleAtFixedRate(() -> progress.update(live(tally.done.get(), requests,
          tally.succeeded.get(), counter, start)), 0, PROGRESS_MILLIS, TimeUnit.MILLISECONDS);
    }
    try {
      if (async) {
        enqueueAll(PoliteCallFactory.create(client), targets, requests, concurrency, tally);
      } else {
        executeAll(client, targets, requests, concurrency, tally);
      }
    } finally {
      ticker.shutdownNow();
      ticker.awaitTermination(1, TimeUnit.SECONDS);
      if (progress != null) {
        progress.clear();
      }
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    IOException cause = tally.unreachable.get();
    if (cause != null) {
      throw new UnreachableException(String.valueOf(tally.unreachableUrl.get()), cause);
    }
    return new RunResult(kind.cliName(), requests, tally.succeeded.get(), counter.rejected(),
        counter.sent(), tally.retries.get(), tally.failed.get(), tally.dropped.get(), seconds,
        counter.attempts(), targets.results(), counter.connectionRetries());
  }

  private static void executeAll(OkHttpClient client, Targets targets, int requests,
      int concurrency, Tally tally) throws InterruptedException {
    AtomicInteger next = new AtomicInteger();
    Runnable worker = () -> {
      int i;
      while (tally.unreachable.get() == null && (i = next.getAndIncrement()) < requests) {
        Target target = targets.of(i);
        CallAttempts attempts = new CallAttempts();
        try (Response response = client.newCall(CallAttempts.tag(target.request, attempts)).execute()) {
          tally.answered(response, target);
        } catch (IOException e) {
          tally.failed(e, target);
        } catch (RuntimeException e) {
          // an interceptor broke OkHttp's rule; the call failed all the same
          tally.failed.incrementAndGet();
          target.failed.incrementAndGet();
        } finally {
          tally.ended(attempts, target);
        }
      }
    };
    ExecutorService workers = Executors.newFixedThreadPool(concurrency, daemon("load-worker"));
    try {
      List<Future<?>> running = new ArrayList<>();
      for (int i = 0; i < concurrency; i++) {
        running.add(workers.submit(worker));
      }
      for (Future<?> future : running) {
        future.get();
      }
    } catch (ExecutionException e) {
      throw new IllegalStateException("a load worker failed: " + e.getCause(), e.getCause());
    } finally {
      workers.shutdownNow();
    }
  }

  /** Keeps {@code concurrency} calls enqueued until all are made; this thread only enqueues. */
  private static void enqueueAll(Call.Factory calls, Targets targets, int requests,
      int concurrency, Tally tally) throws InterruptedException {
    Semaphore outstanding = new Semaphore(concurrency);
    int made = 0;
    for (; made < requests && tally.unreachable.get() == null; made++) {
      outstanding.acquire();
      Target target = targets.of(made);
      CallAttempts attempts = new CallAttempts();
      calls.newCall(CallAttempts.tag(target.request, attempts)).enqueue(new Callback() {
        @Override
        public void onResponse(Call call, Response response) {
          try (response) {
            tally.answered(response, target);
          } catch (IOException e) {
            tally.failed(e, target);
          } finally {
            tally.ended(attempts, target);
            outstanding.release();
          }
        }

        @Override
        public void onFailure(Call call, IOException e) {
          tally.failed(e, target);
          tally.ended(attempts, target);
          outstanding.release();
        }
      });
    }
    outstanding.acquire(concurrency); // every call made has ended
  }

  /**
   * One distinct URL of a run: its request and what its calls came to (the same counts as the
   * run's, and the refusals its calls met), counted from every thread that ends one of them.
   */
  private static final class Target {
    final HttpUrl url;
    final Request request;
    final AtomicInteger calls = new AtomicInteger();
    final AtomicInteger succeeded = new AtomicInteger();
    final AtomicInteger failed = new AtomicInteger();
    final AtomicInteger dropped = new AtomicInteger();
    final AtomicLong refused = new AtomicLong();
    final AtomicLong lastEndNanos = new AtomicLong(Long.MIN_VALUE); // nanoTime may be negative

    Target(HttpUrl url) {
      this.url = url;
      this.request = new Request.Builder().url(url).get().build();
    }
  }

  /** The run's URLs: call {@code i}'s target, round robin, and each distinct URL once, in order. */
  private static final class Targets {
    private final Target[] byCall;
    private final List<Target> distinct = new ArrayList<>();
    private final long startNanos;

    Targets(List<HttpUrl> urls, long startNanos) {
      this.startNanos = startNanos;
      this.byCall = new Target[urls.size()];
      Map<HttpUrl, Target> seen = new LinkedHashMap<>();
      for (int i = 0; i < urls.size(); i++) {
        byCall[i] = seen.computeIfAbsent(urls.get(i), Target::new);
      }
      distinct.addAll(seen.values());
    }

    Target of(int call) {
      return byCall[call % byCall.length];
    }

    /** Each distinct URL's counts; none when there is only one. */
    List<UrlResult> results() {
      if (distinct.size() < 2) {
        return List.of();
      }
      List<UrlResult> results = new ArrayList<>(distinct.size());
      for (Target target : distinct) {
        long end = target.lastEndNanos.get();
        results.add(new UrlResult(target.url.toString(), target.calls.get(), target.succeeded.get(),
            target.failed.get(), target.refused.get(), target.dropped.get(),
            end == Long.MIN_VALUE ? 0 : (end - startNanos) / 1e9));
      }
      return results;
    }
  }

  /** What the calls came to, counted from every thread that ends one. */
  private static final class Tally {
    final AtomicInteger done = new AtomicInteger();
    final AtomicInteger succeeded = new AtomicInteger();
    final AtomicInteger failed = new AtomicInteger();
    final AtomicInteger dropped = new AtomicInteger();
    final AtomicLong retries = new AtomicLong();
    final AtomicReference<IOException> unreachable = new AtomicReference<>();
    final AtomicReference<HttpUrl> unreachableUrl = new AtomicReference<>();

    void answered(Response response, Target target) throws IOException {
      response.body().bytes(); // read it all, so the connection goes back to the pool
      if (response.isSuccessful()) {
        succeeded.incrementAndGet();
        target.succeeded.incrementAndGet();
      }
    }

    void failed(IOException e, Target target) {
      if (e instanceof ThrottledLocallyException) {
        dropped.incrementAndGet(); // refused on our side: never sent, not the server's answer
        target.dropped.incrementAndGet();
      } else if (isUnreachable(e)) {
        if (unreachable.compareAndSet(null, e)) {
          unreachableUrl.set(target.url);
        }
      } else {
        failed.incrementAndGet();
        target.failed.incrementAndGet();
      }
    }

    void ended(CallAttempts attempts, Target target) {
      retries.addAndGet(attempts.retries());
      target.calls.incrementAndGet();
      target.refused.addAndGet(attempts.rejections());
      target.lastEndNanos.accumulateAndGet(System.nanoTime(), Math::max);
      done.incrementAndGet();
    }
  }

  private String live(int done, int requests, int succeeded, AttemptCounter counter, long start) {
    return String.format(Locale.ROOT, "  %-20s %3d/%d done  %3d ok  %4d rejected  %4d sent  %5.1f s",
        kind.cliName(), done, requests, succeeded, counter.rejected(), counter.sent(),
        (System.nanoTime() - start) / 1e9);
  }

  /** Whether {@code e} says the server is not there, rather than that one exchange failed. */
  static boolean isUnreachable(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof ConnectException || t instanceof UnknownHostException
          || t instanceof NoRouteToHostException) {
        return true;
      }
      if (t instanceof SocketTimeoutException && t.getMessage() != null
          && t.getMessage().toLowerCase(Locale.ROOT).contains("connect")) {
        return true;
      }
      if (t.getCause() == t) {
        break;
      }
    }
    return false;
  }

  private static java.util.concurrent.ThreadFactory daemon(String name) {
    AtomicInteger n = new AtomicInteger();
    return runnable -> {
      Thread thread = new Thread(runnable, name + "-" + n.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    };
  }
}
