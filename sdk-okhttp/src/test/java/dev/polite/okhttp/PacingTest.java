package dev.polite.okhttp;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import mockwebserver3.MockResponse;
import okhttp3.OkHttpClient;
import okhttp3.Response;
import org.junit.jupiter.api.Test;

/** Pacing: the advertised pace, the first-answer gate, discovery, and many threads on one key. */
class PacingTest extends HarnessTest {
  @Test
  void toldNothingItSendsTheAdvertisedBurstThenPacesWithoutA429() throws Exception {
    // The classic client scenario: burst 5, 5 per second, 30 requests one at a time.
    TokenBucketServer server = new TokenBucketServer(h.clock, 5, 5, true);
    h.server.setDispatcher(server);
    OkHttpClient client = h.client(h.polite());

    for (int i = 0; i < 30; i++) {
      try (Response r = client.newCall(h.get("/api")).execute()) {
        assertThat(r.code()).isEqualTo(200);
      }
    }

    assertThat(h.sends).hasSize(30);
    assertThat(server.rejected.get()).isZero();
    // The floor is 5.0 s: the burst of 5 at once, then 25 at 5 per second.
    assertThat(h.clock.elapsedSeconds()).isBetween(4.99, 5.25);
  }

  @org.junit.jupiter.api.RepeatedTest(5)
  void manyThreadsOnAnAdvertisedLimitNeverDrawA429() throws Exception {
    TokenBucketServer server = new TokenBucketServer(h.clock, 10, 10, true);
    h.server.setDispatcher(server);
    OkHttpClient client = h.client(h.polite());

    runConcurrently(8, 10, client, "/api");

    assertThat(server.rejected.get()).isZero();
    assertThat(server.admitted.get()).isEqualTo(80);
    // No elapsed-time assertion here: on one fake clock every sleeping thread moves time for
    // all, so concurrent timings are measured against the real demo server instead.
  }

  @Test
  void untilTheFirstAnswerOnlyOneCallIsInFlight() throws Exception {
    h.server.enqueue(new MockResponse.Builder().code(200).headersDelay(200, TimeUnit.MILLISECONDS).build());
    for (int i = 0; i < 5; i++) {
      h.server.enqueue(new MockResponse.Builder().code(200).build());
    }
    OkHttpClient client = h.client(h.polite());

    runConcurrently(6, 1, client, "/api");

    assertThat(h.server.getRequestCount()).isEqualTo(6);
    // The first answer took 200 ms; had the gate been open, the others would have overlapped it.
    assertThat(h.overlappedFirst.get()).isZero();
  }

  @Test
  void withoutCautionTheFirstCallsGoTogether() throws Exception {
    h.server.enqueue(new MockResponse.Builder().code(200).headersDelay(300, TimeUnit.MILLISECONDS).build());
    for (int i = 0; i < 3; i++) {
      h.server.enqueue(new MockResponse.Builder().code(200).headersDelay(300, TimeUnit.MILLISECONDS).build());
    }
    OkHttpClient client = h.client(h.polite().cautiousStart(false));

    runConcurrently(4, 1, client, "/api");

    assertThat(h.overlappedFirst.get()).isGreaterThan(0);
  }

  @Test
  void aServerThatAdvertisesNothingGetsADiscoveredPace() throws Exception {
    TokenBucketServer server = new TokenBucketServer(h.clock, 5, 5, false);
    h.server.setDispatcher(server);
    OkHttpClient client = h.client(h.polite());

    int ok = 0;
    for (int i = 0; i < 200; i++) {
      try (Response r = client.newCall(h.get("/api")).execute()) {
        ok += r.code() == 200 ? 1 : 0;
      }
    }

    assertThat(ok).isEqualTo(200);
    double rejectedShare = server.rejected.get() / (double) h.sends.size();
    assertThat(rejectedShare).as("share of attempts rejected").isLessThan(0.10);
    // Settled near the server's 5/s: 200 calls take at least 39 s and not much more.
    assertThat(h.clock.elapsedSeconds()).isBetween(39.0, 60.0);
  }

  @Test
  void aServerThatNamesOnlyItsDelayHasWhatItBankedDuringThePauseSpent() throws Exception {
    // 20/s, burst 20, a 429 with Retry-After rounded up to whole seconds and nothing else: the
    // burst, a refusal asking 1 s for a 50 ms wait, then the bucket is full again. Spent after the
    // probe, that bank saves the second; paced alone, 100 calls took 5.1 s of a 4.0 s floor.
    TokenBucketServer server = new TokenBucketServer(h.clock, 20, 20, false);
    h.server.setDispatcher(server);
    OkHttpClient client = h.client(h.polite());

    for (int i = 0; i < 100; i++) {
      try (Response r = client.newCall(h.get("/api")).execute()) {
        assertThat(r.code()).isEqualTo(200);
      }
    }

    assertThat(server.rejected.get()).isEqualTo(1);
    assertThat(h.clock.elapsedSeconds()).isBetween(4.0, 4.4);
  }

  @Test
  void enqueuedCallsArePacedOnTheDispatchersThreads() throws Exception {
    TokenBucketServer server = new TokenBucketServer(h.clock, 5, 5, true);
    h.server.setDispatcher(server);
    OkHttpClient client = h.client(h.polite());
    int calls = 20;
    java.util.concurrent.CountDownLatch done = new java.util.concurrent.CountDownLatch(calls);
    java.util.concurrent.atomic.AtomicInteger ok = new java.util.concurrent.atomic.AtomicInteger();
    for (int i = 0; i < calls; i++) {
      client.newCall(h.get("/api")).enqueue(new okhttp3.Callback() {
        @Override
        public void onFailure(okhttp3.Call call, java.io.IOException e) {
          done.countDown();
        }

        @Override
        public void onResponse(okhttp3.Call call, Response response) {
          try (response) {
            if (response.code() == 200) {
              ok.incrementAndGet();
            }
          }
          done.countDown();
        }
      });
    }

    assertThat(done.await(30, TimeUnit.SECONDS)).isTrue();
    assertThat(ok.get()).isEqualTo(calls);
    assertThat(server.rejected.get()).isZero();
  }

  private void runConcurrently(int threads, int callsEach, OkHttpClient client, String path)
      throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> futures = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        futures.add(pool.submit(() -> {
          for (int i = 0; i < callsEach; i++) {
            try (Response r = client.newCall(h.get(path)).execute()) {
              assertThat(r.code()).isEqualTo(200);
            }
          }
          return null;
        }));
      }
      for (Future<?> f : futures) {
        f.get(30, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
  }
}
