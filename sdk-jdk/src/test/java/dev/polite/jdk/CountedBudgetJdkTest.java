package dev.polite.jdk;

import dev.polite.testing.ManualScheduler;
import static org.assertj.core.api.Assertions.assertThat;

import dev.polite.testing.FixedWindowCount;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A count with no reset on the JDK client: a fixed window of 10 a second on the harness's clock
 * that says only Shopify's {@code used/limit}, and a {@code Retry-After} of a second on a refusal.
 * Each window's count goes at once and the key pauses when it is spent: one refusal, the one that
 * teaches the refill; {@code send} and {@code sendAsync} alike.
 */
@Timeout(60)
class CountedBudgetJdkTest {
  private final JdkHarness h = new JdkHarness();
  private final AtomicInteger admitted = new AtomicInteger();
  private final AtomicInteger refused = new AtomicInteger();

  CountedBudgetJdkTest() throws IOException {
    FixedWindowCount count = new FixedWindowCount(10, 1_000_000_000L);
    h.server.setDispatcher(new Dispatcher() {
      @Override
      public synchronized MockResponse dispatch(RecordedRequest request) {
        boolean ok = count.admit(h.clock.read());
        (ok ? admitted : refused).incrementAndGet();
        MockResponse.Builder answer = new MockResponse.Builder().code(ok ? 200 : 429)
            .addHeader("X-Shopify-Shop-Api-Call-Limit", count.used() + "/10").body(ok ? "ok" : "slow down");
        return ok ? answer.build() : answer.addHeader("Retry-After", "1").build();
      }
    });
  }

  @AfterEach
  void close() throws IOException {
    h.close();
  }

  @Test
  void sendSpendsEachWindowAtOnceAndIsRefusedOnce() throws Exception {
    HttpClient client = h.polite().maxWait(Duration.ofSeconds(5)).build();
    for (int i = 0; i < 40; i++) {
      assertThat(h.send(client, h.get("/admin/orders.json")).statusCode()).as("call %d", i).isEqualTo(200);
    }
    assertThat(refused).as("the first spent count, which names the refill").hasValue(1);
    // Four windows of 10, each sent at once; paced evenly by that refusal, 40 calls take over 4 s.
    assertThat(h.clock.elapsedSeconds()).isLessThan(3.2);
  }

  @Test
  void sendAsyncSpendsItWithoutAThreadWaiting() throws Exception {
    ManualScheduler scheduler = new ManualScheduler(h.clock);
    HttpClient client = h.politeAsync(scheduler).maxWait(Duration.ofSeconds(30)).build();

    List<CompletableFuture<HttpResponse<String>>> calls = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      calls.add(client.sendAsync(h.get("/admin/orders.json"), h.strings()));
    }
    CompletableFuture<Void> all = CompletableFuture.allOf(calls.toArray(new CompletableFuture<?>[0]));
    while (!all.isDone()) {
      CompletableFuture<Void> added = scheduler.nextAdded();
      if (scheduler.runDue()) {
        continue;
      }
      try {
        CompletableFuture.anyOf(all, added).get(100, TimeUnit.MILLISECONDS);
      } catch (TimeoutException quiet) {
        // Nothing the JDK client's threads carried woke a call: the clock moves to the next
        // task's time (early at worst, which only gives the window more room, never less).
        scheduler.runNext();
      }
    }

    for (CompletableFuture<HttpResponse<String>> call : calls) {
      assertThat(call.join().statusCode()).isEqualTo(200);
    }
    assertThat(admitted).hasValue(40);
    assertThat(refused.get()).as("the first spent count's calls on the wire at most").isLessThanOrEqualTo(3);
    assertThat(scheduler.pending()).isZero();
  }
}
