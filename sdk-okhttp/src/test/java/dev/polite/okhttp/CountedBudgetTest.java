package dev.polite.okhttp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.polite.testing.FakeClock;
import dev.polite.testing.FixedWindowCount;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.RecordedRequest;
import okhttp3.OkHttpClient;
import okhttp3.Response;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A count with no reset on OkHttp: a fixed window of 10 a second on the harness's clock that says
 * only what is left (Shopify's {@code used/limit}, or Azure's remaining count) and a
 * {@code Retry-After} of a second on a refusal. Each window's count goes at once and the key pauses
 * when it is spent: one refusal, the one that teaches the refill; one caller, eight threads, and
 * enqueued calls alike.
 */
class CountedBudgetTest extends HarnessTest {
  private final CountingWindow server = new CountingWindow(h.clock);

  CountedBudgetTest() {
    h.server.setDispatcher(server);
  }

  /** A fixed window of 10 per second of {@code clock}, answering with its count. */
  static final class CountingWindow extends Dispatcher {
    private final FakeClock clock;
    private final FixedWindowCount count = new FixedWindowCount(10, 1_000_000_000L);
    volatile boolean azure;
    final AtomicInteger admitted = new AtomicInteger();
    final AtomicInteger refused = new AtomicInteger();

    CountingWindow(FakeClock clock) {
      this.clock = clock;
    }

    @Override
    public synchronized MockResponse dispatch(RecordedRequest request) {
      boolean ok = count.admit(clock.read());
      (ok ? admitted : refused).incrementAndGet();
      MockResponse.Builder answer = new MockResponse.Builder().code(ok ? 200 : 429).body(ok ? "ok" : "slow down");
      if (azure) {
        answer.addHeader("x-ms-ratelimit-remaining-subscription-reads", count.remaining());
      } else {
        answer.addHeader("X-Shopify-Shop-Api-Call-Limit", count.used() + "/" + count.limit());
      }
      return ok ? answer.build() : answer.addHeader("Retry-After", "1").build();
    }
  }

  private int code(OkHttpClient client) throws IOException {
    try (Response r = client.newCall(h.get("/admin/orders.json")).execute()) {
      return r.code();
    }
  }

  @ParameterizedTest(name = "azure {0}")
  @ValueSource(booleans = {false, true})
  void oneCallerSpendsEachWindowAtOnceAndIsRefusedOnce(boolean azure) throws IOException {
    server.azure = azure;
    OkHttpClient client = h.client(h.polite().maxWait(Duration.ofSeconds(5)));
    for (int i = 0; i < 40; i++) {
      assertThat(code(client)).as("call %d", i).isEqualTo(200);
    }
    assertThat(server.refused).as("the first spent count, which names the refill").hasValue(1);
    // Four windows of 10, each sent at once; paced evenly by that refusal, 40 calls take over 4 s.
    assertThat(h.clock.elapsedSeconds()).isLessThan(3.2);
  }

  @Test
  void eightThreadsSpendItAndAreRefusedOnlyWhileTheRefillIsUnknown() throws Exception {
    OkHttpClient client = h.client(h.polite().maxWait(Duration.ofSeconds(30)));
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<Integer>> calls = new ArrayList<>();
      for (int i = 0; i < 40; i++) {
        calls.add(pool.submit(() -> code(client)));
      }
      for (Future<Integer> call : calls) {
        assertThat(call.get(30, TimeUnit.SECONDS)).isEqualTo(200);
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(server.admitted).hasValue(40);
    assertThat(server.refused.get()).as("the first spent count's calls on the wire at most").isLessThanOrEqualTo(3);
  }

  @Test
  void enqueuedCallsSpendItWithoutAThreadWaiting() throws Exception {
    FakeScheduler scheduler = new FakeScheduler(h.clock);
    OkHttpClient client = h.client(h.polite().maxWait(Duration.ofSeconds(30)));
    PoliteCallFactory calls = PoliteCallFactory.builder(client).scheduler(scheduler).build();
    Outcomes outcomes = new Outcomes();
    for (int i = 0; i < 40; i++) {
      calls.newCall(h.get("/admin/orders.json")).enqueue(outcomes);
    }
    scheduler.runUntil(() -> outcomes.size() == 40 && client.dispatcher().runningCallsCount() == 0,
        client.dispatcher());

    assertThat(outcomes.ended).containsOnly(200);
    assertThat(server.refused.get()).isLessThanOrEqualTo(3);
    assertThat(h.clock.elapsedSeconds()).isLessThan(3.2);
  }
}
