package dev.polite.okhttp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.polite.Aimd;
import dev.polite.KeySnapshot;
import dev.polite.PoliteListener;
import dev.polite.RateLimitSignals;
import dev.polite.testing.PoliteInternals;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import okhttp3.Call;
import okhttp3.Callback;
import okhttp3.OkHttpClient;
import okhttp3.Protocol;
import okhttp3.Request;
import okhttp3.Response;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Many asynchronous calls on real time and the system scheduler, a third of them cancelled at
 * random moments (before, while and after they wait) against a server that refuses now and then:
 * every callback is heard exactly once, and the key ends with nothing in flight, so no cancel
 * leaks a place or a reservation.
 */
@Timeout(60)
class PoliteCallFactoryStressTest {
  @Test
  void cancelsAtRandomMomentsLeaveNothingBehind() throws Exception {
    AtomicInteger served = new AtomicInteger();
    try (MockWebServer server = new MockWebServer()) {
      server.setProtocols(List.of(Protocol.H2_PRIOR_KNOWLEDGE));
      server.setDispatcher(new Dispatcher() {
        @Override
        public MockResponse dispatch(RecordedRequest request) {
          return served.incrementAndGet() % 7 == 0
              ? new MockResponse.Builder().code(429).addHeader("Retry-After", "0").build()
              : new MockResponse.Builder().code(200).body("ok").build();
        }
      });
      server.start();
      long start = System.nanoTime();
      List<String> paces = new java.util.concurrent.CopyOnWriteArrayList<>();
      PoliteListener pacesLearned = new PoliteListener() {
        @Override
        public void policyLearned(String key, double rate, double burst, RateLimitSignals s) {
          paces.add(String.format("%.1fs:%.1f/s", (System.nanoTime() - start) / 1e9, rate));
        }
      };
      // The server refuses every 7th request whatever the pace, so once a second of sending has
      // passed each refusal cuts the discovered pace again, to 0.9 times what was admitted since
      // the last cut. On a quiet machine the run is over by then; on a loaded one the first
      // second admits a handful (cold JIT, the cautious start), the first cut paces at ~6/s and
      // each later one takes a quarter off, down to ~1/s: 30 calls still queued for their
      // tokens at 30 s, slow but not stuck. The floor keeps the cuts, and the reservations each
      // one voids, but bounds the run: some 470 attempts at 100/s or more.
      PoliteInterceptor polite = PoliteInterceptor.builder().startingRate(400).startingBurst(5)
          .rateController(Aimd.builder().minRate(100).build())
          .backoff(Duration.ofMillis(1), Duration.ofMillis(20)).addListener(pacesLearned).build();
      OkHttpClient client = new OkHttpClient.Builder()
          .protocols(List.of(Protocol.H2_PRIOR_KNOWLEDGE))
          .addInterceptor(polite).build();
      PoliteCallFactory calls = PoliteCallFactory.create(client);

      int n = 400;
      CountDownLatch ended = new CountDownLatch(n);
      ConcurrentHashMap<Call, Integer> heard = new ConcurrentHashMap<>();
      AtomicInteger twice = new AtomicInteger();
      Callback callback = new Callback() {
        @Override
        public void onResponse(Call call, Response response) {
          response.close();
          hear(call);
        }

        @Override
        public void onFailure(Call call, IOException e) {
          hear(call);
        }

        private void hear(Call call) {
          if (heard.merge(call, 1, Integer::sum) > 1) {
            twice.incrementAndGet();
          }
          ended.countDown();
        }
      };
      Random random = new Random(7);
      List<Call> made = new java.util.concurrent.CopyOnWriteArrayList<>();
      ScheduledExecutorService cancels = Executors.newSingleThreadScheduledExecutor();
      try {
        for (int i = 0; i < n; i++) {
          Call call = calls.newCall(new Request.Builder().url(server.url("/" + i)).build());
          made.add(call);
          if (random.nextInt(3) == 0) {
            int when = random.nextInt(4);
            if (when == 0) {
              call.cancel(); // before it is enqueued
            } else {
              cancels.schedule(call::cancel, random.nextInt(500), TimeUnit.MILLISECONDS);
            }
          }
          call.enqueue(callback);
        }
        boolean all = ended.await(30, TimeUnit.SECONDS);
        List<String> unheard = new java.util.ArrayList<>();
        for (Call c : made) {
          if (!heard.containsKey(c)) {
            unheard.add(c.request().url().encodedPath() + (c.isCanceled() ? " (cancelled)" : ""));
          }
        }
        String where = "";
        if (!unheard.isEmpty()) {
          // Where each unheard call is, then again a while later: stuck, or only slow?
          where = whereUnheard(made, heard) + "\npaces learned: " + paces + "\ndispatcher: "
              + client.dispatcher().runningCallsCount() + " running, "
              + client.dispatcher().queuedCallsCount() + " queued\nkey: " + PoliteInternals.keys(polite.polite()).all();
          long more = System.nanoTime();
          ended.await(10, TimeUnit.SECONDS);
          where += "\n" + (System.nanoTime() - more) / 1_000_000 + " ms later, key: "
              + PoliteInternals.keys(polite.polite()).all() + "; still unheard:" + whereUnheard(made, heard);
        }
        assertThat(unheard).as("calls whose callback never heard; where they are:" + where)
            .isEmpty();
        assertThat(all).as("every callback heard").isTrue();
      } finally {
        cancels.shutdownNow();
      }
      assertThat(twice.get()).as("callbacks heard twice").isZero();
      assertThat(heard).hasSize(n);
      KeySnapshot key = polite.snapshots().get(0);
      assertThat(key.inFlight()).as("places and reservations left behind").isZero();
      assertThat(key.tokens()).isLessThanOrEqualTo(5.0);
    }
  }

  /** Each call not yet heard, and where it is: at its key, scheduled, or with OkHttp. */
  private static String whereUnheard(List<Call> made, Map<Call, Integer> heard) {
    StringBuilder at = new StringBuilder();
    for (Call c : made) {
      if (!heard.containsKey(c)) {
        at.append('\n').append(c.request().url().encodedPath()).append(": ")
            .append(((PoliteCall) c).whereNow());
      }
    }
    return at.toString();
  }
}
