package dev.polite.examples;

import dev.polite.adaptive.ThrottledLocallyException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
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
 * An {@link AttemptCounter} sits on the network side to count what really reached the server,
 * and each call carries its own {@link CallAttempts}, so that its retries are counted as its
 * own. A call ends in one of four ways: an answer (2xx is a success), a local drop by an adaptive
 * throttle ({@link ThrottledLocallyException}: never sent), a failure (any other exception), or
 * "the server is not there at all", which stops the run.
 *
 * <p>Usage: {@code RunResult r = new LoadRunner(new OkHttpClient(), ClientKind.POLITE, 4.5, 5).run(url, 30, 1, null);}
 */
public final class LoadRunner {
  private static final long PROGRESS_MILLIS = 100;

  private final OkHttpClient base;
  private final ClientKind kind;
  private final double pacedRate;
  private final double pacedBurst;

  /**
   * @param base the client to derive from (its connection pool is shared)
   * @param kind the client to measure
   * @param pacedRate the paced client's rate per second
   * @param pacedBurst the paced client's burst
   */
  public LoadRunner(OkHttpClient base, ClientKind kind, double pacedRate, double pacedBurst) {
    this.base = base;
    this.kind = kind;
    this.pacedRate = pacedRate;
    this.pacedBurst = pacedBurst;
  }

  /**
   * Sends {@code requests} GETs to {@code url}, {@code concurrency} at a time, and waits for all.
   *
   * @param progress a live line to update every 100 ms, or null for none
   * @throws UnreachableException if the server could not be reached at all
   */
  public RunResult run(HttpUrl url, int requests, int concurrency, @Nullable ProgressLine progress)
      throws UnreachableException, InterruptedException {
    long start = System.nanoTime();
    AttemptCounter counter = new AttemptCounter(start);
    Dispatcher dispatcher = new Dispatcher();
    dispatcher.setMaxRequests(Math.max(64, concurrency));
    dispatcher.setMaxRequestsPerHost(Math.max(5, concurrency));
    OkHttpClient.Builder builder = base.newBuilder().dispatcher(dispatcher);
    for (Interceptor interceptor : kind.interceptors(pacedRate, pacedBurst)) {
      builder.addInterceptor(interceptor);
    }
    OkHttpClient client = builder.addNetworkInterceptor(counter).build();
    Request request = new Request.Builder().url(url).get().build();

    AtomicInteger next = new AtomicInteger();
    AtomicInteger done = new AtomicInteger();
    AtomicInteger succeeded = new AtomicInteger();
    AtomicInteger failed = new AtomicInteger();
    AtomicInteger dropped = new AtomicInteger();
    AtomicLong retries = new AtomicLong();
    AtomicReference<IOException> unreachable = new AtomicReference<>();
    Runnable worker = () -> {
      while (unreachable.get() == null && next.getAndIncrement() < requests) {
        CallAttempts attempts = new CallAttempts();
        try (Response response = client.newCall(CallAttempts.tag(request, attempts)).execute()) {
          response.body().bytes(); // read it all, so the connection goes back to the pool
          if (response.isSuccessful()) {
            succeeded.incrementAndGet();
          }
        } catch (ThrottledLocallyException e) {
          dropped.incrementAndGet(); // refused on our side: never sent, not the server's answer
        } catch (IOException e) {
          if (isUnreachable(e)) {
            unreachable.compareAndSet(null, e);
          } else {
            failed.incrementAndGet();
          }
        } catch (RuntimeException e) {
          failed.incrementAndGet(); // an interceptor broke OkHttp's rule; the call failed all the same
        } finally {
          retries.addAndGet(attempts.retries());
          done.incrementAndGet();
        }
      }
    };

    ExecutorService workers = Executors.newFixedThreadPool(concurrency, daemon("load-worker"));
    ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(daemon("load-progress"));
    if (progress != null) {
      ticker.scheduleAtFixedRate(() -> progress.update(live(done.get(), requests, succeeded.get(),
          counter, start)), 0, PROGRESS_MILLIS, TimeUnit.MILLISECONDS);
    }
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
      ticker.shutdownNow();
      ticker.awaitTermination(1, TimeUnit.SECONDS);
      if (progress != null) {
        progress.clear();
      }
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    IOException cause = unreachable.get();
    if (cause != null) {
      throw new UnreachableException(url.toString(), cause);
    }
    return new RunResult(kind.cliName(), requests, succeeded.get(), counter.rejected(),
        counter.sent(), retries.get(), failed.get(), dropped.get(), seconds, counter.attempts());
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
