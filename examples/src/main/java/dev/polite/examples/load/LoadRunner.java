package dev.polite.examples.load;

import dev.polite.PoliteListener;
import dev.polite.adaptive.ThrottledLocallyException;
import dev.polite.examples.ProgressLine;
import dev.polite.examples.clients.CallAttempts;
import dev.polite.examples.clients.ClientKind;
import dev.polite.examples.clients.WireCount;
import dev.polite.okhttp.PoliteCallFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletionException;
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
import okhttp3.HttpUrl;
import okhttp3.OkHttpClient;
import org.jspecify.annotations.Nullable;

/**
 * Sends N GETs through one client, C at a time, and counts what happened. The client is made
 * fresh for each run on its kind's engine, a {@link LoadClient} shared by every worker as an
 * application would share it: a client's state (polite's learned limit, the paced bucket) is per
 * client, not per call. It counts what reached the server where it happens, on the wire, and each
 * call's attempts into the call's {@link CallAttempts} ({@link OkHttpLoadClient},
 * {@link JdkLoadClient} say how), the engine's silent re-sends included, so that a call's retries
 * are every attempt beyond its first. A call
 * ends in one of four ways: an answer (2xx is a success), a local drop by an adaptive throttle
 * ({@link ThrottledLocallyException}: never sent), a failure (any other exception), or "the
 * server is not there at all", which stops the run.
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
  private volatile boolean cut;
  private volatile @Nullable LoadClient running;

  /**
   * @param base the OkHttp client to derive from (its connection pool is shared); the kinds on
   *     another engine make their own
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
   * As {@link #run(HttpUrl, int, int, ProgressLine)}, or, when {@code async}, without a thread per
   * call: up to {@code concurrency} calls outstanding, through {@code enqueue} on a
   * {@link PoliteCallFactory} over an OkHttp client, or {@code sendAsync} on the JDK's.
   * {@code async} needs a kind with polite in it.
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
    Targets targets = new Targets(urls, start);
    Tally tally = new Tally();
    try (LoadClient client = open(urls, concurrency, async, start)) {
      running = client;
      if (cut) {
        client.cut();
      }
      ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(daemon("load-progress"));
      if (progress != null) {
        ticker.scheduleAtFixedRate(() -> progress.update(live(tally.done.get(), requests,
            tally.succeeded.get(), client, start)), 0, PROGRESS_MILLIS, TimeUnit.MILLISECONDS);
      }
      try {
        if (async) {
          sendAllAsync(client, targets, requests, concurrency, tally);
        } else {
          sendAll(client, targets, requests, concurrency, tally);
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
      WireCount wire = client.wire();
      return new RunResult(kind.cliName(), requests, tally.succeeded.get(), wire.rejected(), wire.sent(),
          tally.retries.get(), tally.failed.get(), tally.dropped.get(), seconds, wire.attempts(), targets.results(),
          wire.staleConnections());
    } finally {
      running = null;
    }
  }

  /**
   * Cancels the calls of the run under way and fails every later call at once, this run's and
   * any later run's: the last resort of a run that must end (a zoo cell past its time). The calls
   * it ends count as failed. Callable from any thread.
   */
  public void cut() {
    cut = true;
    LoadClient client = running;
    if (client != null) {
      client.cut();
    }
  }

  /** Whether {@link #cut()} was called. */
  public boolean wasCut() {
    return cut;
  }

  /** A fresh client of the kind, on its engine, for one run. */
  private LoadClient open(List<HttpUrl> urls, int concurrency, boolean async, long start) {
    if (kind.engine() == ClientKind.Engine.OKHTTP) {
      return new OkHttpLoadClient(base, kind, pacedRate, pacedBurst, listener, observeOnly, concurrency, async,
          start);
    }
    try {
      switch (kind.engine()) {
        case JDK:
          return JdkLoadClient.open(urls, listener, observeOnly, start);
        case SPRING_JDK:
          return SpringLoadClient.onJdk(urls, listener, observeOnly, start);
        case SPRING_HC5:
          return SpringLoadClient.onHttpClient5(urls, concurrency, listener, observeOnly, start);
        case HC5:
          return Hc5LoadClient.open(urls, concurrency, listener, observeOnly, start);
        case WEBCLIENT:
        default:
          return WebClientLoadClient.open(urls, listener, observeOnly, start);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("the relay that counts " + kind.cliName() + "'s attempts cannot start", e);
    }
  }

  private static void sendAll(LoadClient client, Targets targets, int requests, int concurrency, Tally tally)
      throws InterruptedException {
    AtomicInteger next = new AtomicInteger();
    Runnable worker = () -> {
      int i;
      while (tally.unreachable.get() == null && (i = next.getAndIncrement()) < requests) {
        Target target = targets.of(i);
        CallAttempts attempts = new CallAttempts();
        try {
          tally.answered(client.send(target.url, attempts), target);
        } catch (IOException | RuntimeException e) { // a RuntimeException: an interceptor broke OkHttp's rule
          tally.failed(e, target);
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

  /** Keeps {@code concurrency} calls outstanding until all are made; this thread only makes them. */
  private static void sendAllAsync(LoadClient client, Targets targets, int requests, int concurrency, Tally tally)
      throws InterruptedException {
    Semaphore outstanding = new Semaphore(concurrency);
    for (int made = 0; made < requests && tally.unreachable.get() == null; made++) {
      outstanding.acquire();
      Target target = targets.of(made);
      CallAttempts attempts = new CallAttempts();
      client.sendAsync(target.url, attempts).whenComplete((status, failure) -> {
        try {
          if (failure == null) {
            tally.answered(status, target);
          } else {
            tally.failed(failure instanceof CompletionException && failure.getCause() != null
                ? failure.getCause() : failure, target);
          }
        } finally {
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
    final AtomicInteger calls = new AtomicInteger();
    final AtomicInteger succeeded = new AtomicInteger();
    final AtomicInteger failed = new AtomicInteger();
    final AtomicInteger dropped = new AtomicInteger();
    final AtomicLong refused = new AtomicLong();
    final AtomicLong lastEndNanos = new AtomicLong(Long.MIN_VALUE); // nanoTime may be negative

    Target(HttpUrl url) {
      this.url = url;
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

    void answered(int status, Target target) {
      if (status >= 200 && status < 300) {
        succeeded.incrementAndGet();
        target.succeeded.incrementAndGet();
      }
    }

    /** A call that ended in {@code e} instead of an answer: a local drop, the server not there, or a failure. */
    void failed(Throwable e, Target target) {
      if (e instanceof ThrottledLocallyException) {
        dropped.incrementAndGet(); // refused on our side: never sent, not the server's answer
        target.dropped.incrementAndGet();
      } else if (e instanceof IOException io && isUnreachable(io)) {
        if (unreachable.compareAndSet(null, io)) {
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

  private String live(int done, int requests, int succeeded, LoadClient client, long start) {
    return String.format(Locale.ROOT, "  %-20s %3d/%d done  %3d ok  %4d rejected  %4d sent  %5.1f s",
        kind.cliName(), done, requests, succeeded, client.wire().rejected(), client.wire().sent(),
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
