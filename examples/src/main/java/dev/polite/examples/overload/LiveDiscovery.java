package dev.polite.examples.overload;

import dev.polite.Aimd;
import dev.polite.RateController;
import dev.polite.RateLimitedException;
import dev.polite.adaptive.Cubic;
import dev.polite.demo.Algorithm;
import dev.polite.demo.DemoServer;
import dev.polite.demo.HeaderStyle;
import dev.polite.examples.ProgressLine;
import dev.polite.examples.clients.AttemptCounter;
import dev.polite.examples.clients.SentAttempt;
import dev.polite.okhttp.PoliteInterceptor;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import okhttp3.HttpUrl;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import org.jspecify.annotations.Nullable;

/**
 * The discovery scenario in real time: polite, told nothing, against an in-process demo
 * server that sends no rate-limit headers (token bucket, 20 per second, burst 5; a 429 carries
 * only {@code Retry-After: 1}), with 60 GETs per second of open-loop demand.
 *
 * <p>A scheduler submits one call every 1/60 s onto a bounded pool ({@value #POOL_THREADS}
 * threads, a queue of {@value #POOL_QUEUE}); a call that finds the pool full is a local drop.
 * Polite has a {@link #MAX_WAIT} of one second, so demand above the pace it discovered fails at
 * once with {@link RateLimitedException} instead of piling up: a local drop too. A call polite gave
 * up on after a 429 (its retry would have waited past the max wait) returns that 429: a server
 * rejection, not a drop.
 *
 * <p>The row, over the measured interval (the second half of the run, {@link #measuredFrom}; the
 * first half is the warm-up in which the controller finds the limit):
 * <ul>
 *   <li>{@code sent_rps}: attempts put on the wire per second (retries included), by send time;
 *   <li>{@code server_rejected}: 429s over those attempts;
 *   <li>{@code goodput_rps}: 200s per second, by send time;
 *   <li>{@code local_drop}: the fraction of the calls that arrived in the interval and never
 *       went out ({@link RateLimitedException} or a full pool);
 *   <li>{@code recovery_s}: from the whole run, the seconds from the start until the rolling 5 s
 *       average of admitted requests per second ({@code [t-5, t)}, t a whole second) is within
 *       10 % of 20/s and stays there to the end; null if it never does.
 * </ul>
 *
 * <p>Usage: {@code ScenarioRow row = new LiveDiscovery(LiveDiscovery.Controller.CUBIC, 30).run(null).row();}
 */
final class LiveDiscovery {
  /** The server's rate: 20 per second. */
  public static final int SERVER_RATE = 20;
  /** The server's burst: 5. */
  public static final int SERVER_BURST = 5;
  /** The demand, open-loop: 60 calls per second. */
  public static final int DEMAND_RPS = 60;
  /** Polite's max wait: excess demand fails fast instead of queueing without bound. */
  public static final Duration MAX_WAIT = Duration.ofSeconds(1);
  /** Calls in flight at most (mostly waiting in polite for their turn). */
  public static final int POOL_THREADS = 128;
  /** Calls queued for a thread at most. */
  public static final int POOL_QUEUE = 64;
  /** The rolling window of {@code recovery_s}, in seconds. */
  public static final int RECOVERY_WINDOW = 5;
  /** How far from {@link #SERVER_RATE} the rolling average may be and count as settled. */
  public static final double RECOVERY_BAND = 0.10;

  private static final long PROGRESS_MILLIS = 250;

  /** The rate controllers compared: the {@code config} column. */
  public enum Controller {
    /** {@link Aimd#defaults()}: polite's default. */
    AIMD("aimd", Aimd.defaults()),
    /** {@link Cubic#defaults()}: sdk-adaptive's CUBIC (AWS SDK adaptive mode's constants). */
    CUBIC("cubic", Cubic.defaults());

    private final String configName;
    private final RateController.Factory factory;

    Controller(String configName, RateController.Factory factory) {
      this.configName = configName;
      this.factory = factory;
    }

    /** The {@code config} column: {@code aimd} or {@code cubic}. */
    public String configName() {
      return configName;
    }

    /** A fresh polite, told nothing but this controller and the max wait. */
    PoliteInterceptor polite() {
      return PoliteInterceptor.builder().rateController(factory).maxWait(MAX_WAIT).build();
    }
  }

  /**
   * One controller's run.
   *
   * @param row the scenario row ({@code discovery}, the controller's name)
   * @param arrived calls the scheduler made, over the whole run
   * @param sent attempts on the wire, over the whole run (the drain included)
   * @param rejected 429s received, over the whole run
   * @param admitted 200s received, over the whole run
   * @param dropped calls that never went out (polite's max wait or a full pool)
   * @param poolFull of those, the calls that found the pool full
   * @param failed calls that ended in another I/O error
   * @param admittedPerSecond 200s per second of the run, by send time
   */
  public record Result(ScenarioRow row, long arrived, long sent, long rejected, long admitted,
      long dropped, long poolFull, long failed, long[] admittedPerSecond) {}

  private final Controller controller;
  private final int seconds;

  /**
   * @param controller the rate controller polite discovers the limit with
   * @param seconds seconds of demand, at least 2
   */
  public LiveDiscovery(Controller controller, int seconds) {
    if (seconds < 2) {
      throw new IllegalArgumentException("seconds must be at least 2: " + seconds);
    }
    this.controller = controller;
    this.seconds = seconds;
  }

  /** The first second of the measured interval: the second half of a run of {@code seconds}. */
  public static int measuredFrom(int seconds) {
    return seconds / 2;
  }

  /**
   * Starts a fresh server and a fresh client, runs the demand, waits for the calls in flight,
   * and measures.
   *
   * @param progress a live line to update, or null for none
   */
  public Result run(@Nullable ProgressLine progress) throws InterruptedException {
    try (DemoServer server = DemoServer.builder()
        .algorithm(Algorithm.TOKEN_BUCKET)
        .limit(SERVER_RATE)
        .window(Duration.ofSeconds(1))
        .burst(SERVER_BURST)
        .headers(HeaderStyle.RETRY_AFTER) // no quota headers, Retry-After on a 429: the pace is polite's to find
        .start()) {
      return run(HttpUrl.get(server.url() + "/api/items"), progress);
    }
  }

  private Result run(HttpUrl url, @Nullable ProgressLine progress) throws InterruptedException {
    int total = seconds * DEMAND_RPS;
    AtomicLongArray arrivedPerSecond = new AtomicLongArray(seconds);
    AtomicLongArray droppedPerSecond = new AtomicLongArray(seconds);
    AtomicLong poolFull = new AtomicLong();
    AtomicLong failed = new AtomicLong();
    AtomicInteger next = new AtomicInteger();
    CountDownLatch allArrived = new CountDownLatch(1);

    long start = System.nanoTime();
    AttemptCounter counter = new AttemptCounter(start);
    OkHttpClient client = counter.addTo(new OkHttpClient.Builder()
        .addInterceptor(controller.polite()))
        .callTimeout(Duration.ofSeconds(10))
        .build();
    Request request = new Request.Builder().url(url).get().build();
    ThreadPoolExecutor pool = new ThreadPoolExecutor(POOL_THREADS, POOL_THREADS, 0, TimeUnit.MILLISECONDS,
        new ArrayBlockingQueue<>(POOL_QUEUE), daemon("discovery-call"), new ThreadPoolExecutor.AbortPolicy());
    ScheduledExecutorService scheduler = Executors.newScheduledThreadPool(2, daemon("discovery-demand"));
    try {
      Runnable arrive = () -> {
        int n = next.getAndIncrement();
        if (n >= total) {
          allArrived.countDown();
          return;
        }
        int second = n / DEMAND_RPS; // by schedule, so every second holds exactly 60 arrivals
        arrivedPerSecond.incrementAndGet(second);
        try {
          pool.execute(() -> call(client, request, second, droppedPerSecond, failed));
        } catch (RejectedExecutionException e) {
          poolFull.incrementAndGet();
          droppedPerSecond.incrementAndGet(second);
        }
      };
      ScheduledFuture<?> demand = scheduler.scheduleAtFixedRate(arrive, 0, 1_000_000_000L / DEMAND_RPS,
          TimeUnit.NANOSECONDS);
      if (progress != null) {
        scheduler.scheduleAtFixedRate(() -> progress.update(String.format(Locale.ROOT,
            "  %-6s %5.1f/%d s  %5d sent  %4d rejected  %5d dropped", controller.configName(),
            (System.nanoTime() - start) / 1e9, seconds, counter.sent(), counter.rejected(),
            sum(droppedPerSecond))), 0, PROGRESS_MILLIS, TimeUnit.MILLISECONDS);
      }
      allArrived.await();
      demand.cancel(false);
      pool.shutdown();
      // Every call ends within the max wait plus one exchange; the call timeout bounds the rest.
      if (!pool.awaitTermination(30, TimeUnit.SECONDS)) {
        throw new IllegalStateException("calls still running 30 s after the demand stopped");
      }
    } finally {
      scheduler.shutdownNow();
      pool.shutdownNow();
      scheduler.awaitTermination(1, TimeUnit.SECONDS);
      if (progress != null) {
        progress.clear();
      }
      client.dispatcher().executorService().shutdown();
      client.connectionPool().evictAll();
    }
    return measure(counter.attempts(), arrivedPerSecond, droppedPerSecond, poolFull.get(), failed.get());
  }

  private static void call(OkHttpClient client, Request request, int second, AtomicLongArray droppedPerSecond,
      AtomicLong failed) {
    try (Response response = client.newCall(request).execute()) {
      response.body().bytes();
    } catch (RateLimitedException e) {
      droppedPerSecond.incrementAndGet(second); // polite would have had to wait past its max wait
    } catch (IOException e) {
      failed.incrementAndGet();
    }
  }

  private Result measure(List<SentAttempt> attempts, AtomicLongArray arrivedPerSecond,
      AtomicLongArray droppedPerSecond, long poolFull, long failed) {
    int from = measuredFrom(seconds);
    long[] admittedPerSecond = new long[seconds];
    long sentIn = 0;
    long rejectedIn = 0;
    long admittedIn = 0;
    long rejected = 0;
    long admitted = 0;
    for (SentAttempt a : attempts) {
      int second = (int) (a.sentNanos() / 1_000_000_000L);
      rejected += a.rejected() ? 1 : 0;
      admitted += a.admitted() ? 1 : 0;
      if (second < seconds && a.admitted()) {
        admittedPerSecond[second]++;
      }
      if (second >= from && second < seconds) {
        sentIn++;
        rejectedIn += a.rejected() ? 1 : 0;
        admittedIn += a.admitted() ? 1 : 0;
      }
    }
    long arrivedIn = 0;
    long droppedIn = 0;
    for (int s = from; s < seconds; s++) {
      arrivedIn += arrivedPerSecond.get(s);
      droppedIn += droppedPerSecond.get(s);
    }
    double span = seconds - from;
    ScenarioRow row = new ScenarioRow("discovery", controller.configName(), sentIn / span,
        sentIn == 0 ? Double.NaN : rejectedIn / (double) sentIn, admittedIn / span,
        arrivedIn == 0 ? Double.NaN : droppedIn / (double) arrivedIn, recoverySeconds(admittedPerSecond));
    return new Result(row, sum(arrivedPerSecond), attempts.size(), rejected, admitted, sum(droppedPerSecond),
        poolFull, failed, admittedPerSecond);
  }

  /**
   * The first whole second t such that, for every t' from t to the end of the run, the admitted
   * count over {@code [t'-5, t')} divided by 5 is within 10 % of 20/s; NaN when the run ends
   * outside the band (or is shorter than the window).
   */
  static double recoverySeconds(long[] admittedPerSecond) {
    int end = admittedPerSecond.length;
    double target = SERVER_RATE;
    int settled = -1;
    for (int t = end; t >= RECOVERY_WINDOW; t--) {
      long sum = 0;
      for (int s = t - RECOVERY_WINDOW; s < t; s++) {
        sum += admittedPerSecond[s];
      }
      double average = sum / (double) RECOVERY_WINDOW;
      if (Math.abs(average - target) > RECOVERY_BAND * target) {
        break;
      }
      settled = t;
    }
    return settled < 0 ? Double.NaN : settled;
  }

  private static long sum(AtomicLongArray counts) {
    long sum = 0;
    for (int i = 0; i < counts.length(); i++) {
      sum += counts.get(i);
    }
    return sum;
  }

  private static ThreadFactory daemon(String name) {
    AtomicInteger n = new AtomicInteger();
    return runnable -> {
      Thread thread = new Thread(runnable, name + "-" + n.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    };
  }
}
