package dev.polite.compat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.polite.CallContext;
import dev.polite.PoliteListener;
import dev.polite.RateLimitHeaders;
import dev.polite.RateLimitSignals;
import dev.polite.Sleeper;
import dev.polite.Ticker;
import dev.polite.compat.LocalServer.Reply;
import dev.polite.okhttp.OkHttpResponseView;
import dev.polite.okhttp.PoliteInterceptor;
import dev.polite.testing.FakeClock;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import okhttp3.Call;
import okhttp3.Callback;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The built polite-okhttp jar through a real OkHttpClient of the version under test (see the pom's
 * okhttp.compat.version) against a real HTTP server: the paths a user's calls take, and only
 * through the public API.
 */
@Timeout(30)
class PoliteOnRealOkHttpTest {
  private final FakeClock clock = new FakeClock();
  private final BodyTracker bodies = new BodyTracker();
  private final Events events = new Events();
  private LocalServer server;
  private OkHttpClient client;

  /** What the listener heard, as lines. */
  static final class Events implements PoliteListener {
    final List<String> lines = new CopyOnWriteArrayList<>();

    @Override
    public void policyLearned(String key, double ratePerSecond, double burst, RateLimitSignals signals) {
      lines.add("learned " + ratePerSecond + "/s burst " + burst + " from " + signals.dialect());
    }

    @Override
    public void rateLimited(CallContext call, RateLimitSignals signals) {
      lines.add("rateLimited");
    }

    @Override
    public void retryScheduled(CallContext call, int attempt, Duration delay) {
      lines.add("retry " + attempt + " after " + delay.toMillis() + " ms");
    }
  }

  private OkHttpClient client(PoliteInterceptor.Builder polite) {
    client = new OkHttpClient.Builder()
        .addInterceptor(polite.addListener(events).build())
        .addNetworkInterceptor(bodies)
        .build();
    return client;
  }

  private PoliteInterceptor.Builder onFakeTime() {
    return PoliteInterceptor.builder().clock(clock, clock).wallClock(clock);
  }

  private Request get(String path) {
    return new Request.Builder().url(server.url(path)).build();
  }

  @AfterEach
  void tearDown() {
    if (client != null) {
      client.dispatcher().executorService().shutdown();
      client.connectionPool().evictAll();
    }
    if (server != null) {
      server.close();
    }
  }

  @Test
  void learnsTheAdvertisedLimitFromIetfHeadersAndPacesToIt() throws Exception {
    // The classic scenario: burst 5, 5 per second, 30 calls one at a time, polite told nothing.
    TokenBucketServer limiter = new TokenBucketServer(clock, 5, 5);
    server = new LocalServer(limiter);
    OkHttpClient client = client(onFakeTime());

    RateLimitSignals last = null;
    for (int i = 0; i < 30; i++) {
      try (Response r = client.newCall(get("/api/" + i)).execute()) {
        assertThat(r.code()).isEqualTo(200);
        assertThat(r.body().string()).isEqualTo("ok");
        last = RateLimitHeaders.standard().parse(OkHttpResponseView.of(r));
      }
    }

    assertThat(limiter.rejected.get()).as("429s drawn").isZero();
    assertThat(server.paths()).as("in order, once each").hasSize(30).startsWith("/api/0", "/api/1").endsWith("/api/29");
    // Fake seconds: the burst of 5 at once, then 25 at 5 per second; the floor is 5.0 s.
    assertThat(clock.elapsedSeconds()).isBetween(4.99, 5.25);
    assertThat(events.lines).contains("learned 5.0/s burst 5.0 from ietf-draft-11");
    assertThat(last.dialect()).isEqualTo("ietf-draft-11");
    assertThat(last.limit()).hasValue(5);
    assertThat(last.window()).isEqualTo(Duration.ofSeconds(1));
    assertThat(last.remaining()).isPresent();
    assertThat(bodies.unclosed()).isZero();
  }

  @Test
  void a429WithRetryAfterIsRetriedAfterTheDelayAndSucceeds() throws Exception {
    AtomicInteger n = new AtomicInteger();
    server = new LocalServer(path -> n.getAndIncrement() == 0
        ? new Reply(429, Map.of("Retry-After", "2"), "slow down")
        : Reply.ok());
    OkHttpClient client = client(onFakeTime());

    try (Response r = client.newCall(get("/once")).execute()) {
      assertThat(r.code()).isEqualTo(200);
      assertThat(r.body().string()).isEqualTo("ok");
    }

    assertThat(server.requestCount()).isEqualTo(2);
    assertThat(clock.elapsed()).isGreaterThanOrEqualTo(Duration.ofSeconds(2)).isLessThan(Duration.ofSeconds(5));
    assertThat(events.lines).containsOnlyOnce("rateLimited");
    assertThat(events.lines).filteredOn(l -> l.startsWith("retry 1 after ")).hasSize(1);
    assertThat(bodies.count()).isEqualTo(2);
    assertThat(bodies.unclosed()).as("the 429 polite dropped, and the 200 we read").isZero();
  }

  @Test
  void aRefusalPoliteGivesUpOnIsReturnedUntouched() throws Exception {
    server = new LocalServer(path -> new Reply(429, Map.of("Retry-After", "3600"), "come back in an hour"));
    OkHttpClient client = client(onFakeTime().maxWait(Duration.ofSeconds(10)));

    try (Response r = client.newCall(get("/hour")).execute()) {
      assertThat(r.code()).isEqualTo(429);
      assertThat(r.header("Retry-After")).isEqualTo("3600");
      assertThat(r.body().string()).isEqualTo("come back in an hour");
    }

    assertThat(server.requestCount()).isEqualTo(1);
    assertThat(clock.elapsed()).as("it never sleeps an hour").isLessThan(Duration.ofSeconds(10));
    assertThat(bodies.unclosed()).isZero();
  }

  @Test
  void cancellingAWaitingCallEndsItWithInterruptedIOException() throws Exception {
    // Real time here: a real OkHttp Call cancelled from another thread while polite waits.
    server = new LocalServer(path -> Reply.ok());
    CountDownLatch asleep = new CountDownLatch(1);
    OkHttpClient client = client(PoliteInterceptor.builder().startingRate(0.1) // one call per 10 s
        .clock(Ticker.system(), signallingSleeper(asleep)));
    try (Response r = client.newCall(get("/first")).execute()) {
      assertThat(r.code()).isEqualTo(200);
    }
    Call waiting = client.newCall(get("/second"));
    ExecutorService canceller = Executors.newSingleThreadExecutor();
    try {
      canceller.execute(() -> {
        awaitQuietly(asleep);
        waiting.cancel();
      });
      long start = System.nanoTime();
      assertThatThrownBy(waiting::execute).isInstanceOf(InterruptedIOException.class);
      assertThat(Duration.ofNanos(System.nanoTime() - start)).as("well before the 10 s pace").isLessThan(Duration.ofSeconds(5));
    } finally {
      canceller.shutdownNow();
    }
    assertThat(server.paths()).containsExactly("/first");
    assertThat(bodies.unclosed()).isZero();
  }

  @Test
  void enqueuedCallsArePacedAndAnsweredOnTheDispatcher() throws Exception {
    TokenBucketServer limiter = new TokenBucketServer(clock, 5, 5);
    server = new LocalServer(limiter);
    OkHttpClient client = client(onFakeTime());
    int calls = 20;
    CountDownLatch done = new CountDownLatch(calls);
    List<Object> outcomes = new CopyOnWriteArrayList<>();

    for (int i = 0; i < calls; i++) {
      client.newCall(get("/async/" + i)).enqueue(new Callback() {
        @Override
        public void onFailure(Call call, IOException e) {
          outcomes.add(e);
          done.countDown();
        }

        @Override
        public void onResponse(Call call, Response response) throws IOException {
          try (response) {
            outcomes.add(response.code());
          } finally {
            done.countDown();
          }
        }
      });
    }

    assertThat(done.await(20, TimeUnit.SECONDS)).isTrue();
    assertThat(outcomes).hasSize(calls).containsOnly(200);
    assertThat(limiter.admitted.get()).isEqualTo(calls);
    assertThat(limiter.rejected.get()).isZero();
    // No elapsed-time assertion: every sleeping dispatcher thread moves the one fake clock.
    assertThat(bodies.unclosed()).isZero();
  }

  @Test
  void cancellingAWaitingEnqueuedCallFailsItWithInterruptedIOException() throws Exception {
    server = new LocalServer(path -> Reply.ok());
    CountDownLatch asleep = new CountDownLatch(1);
    OkHttpClient client = client(PoliteInterceptor.builder().startingRate(0.1)
        .clock(Ticker.system(), signallingSleeper(asleep)));
    try (Response r = client.newCall(get("/first")).execute()) {
      assertThat(r.code()).isEqualTo(200);
    }
    CompletableFuture<Object> outcome = new CompletableFuture<>();
    Call waiting = client.newCall(get("/second"));
    waiting.enqueue(new Callback() {
      @Override
      public void onFailure(Call call, IOException e) {
        outcome.complete(e);
      }

      @Override
      public void onResponse(Call call, Response response) {
        response.close();
        outcome.complete(response.code());
      }
    });
    assertThat(asleep.await(5, TimeUnit.SECONDS)).as("the call waits for its pace").isTrue();
    waiting.cancel();

    assertThat(outcome.get(5, TimeUnit.SECONDS)).isInstanceOf(InterruptedIOException.class);
    assertThat(server.paths()).containsExactly("/first");
    assertThat(bodies.unclosed()).isZero();
  }

  /** The system's sleeper, which first says that a call has begun to wait. */
  private static Sleeper signallingSleeper(CountDownLatch asleep) {
    return (deadline, stop) -> {
      asleep.countDown();
      Sleeper.system().sleepUntil(deadline, stop);
    };
  }

  private static void awaitQuietly(CountDownLatch latch) {
    try {
      latch.await(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
