package dev.polite.jdk;

import dev.polite.testing.ManualScheduler;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.polite.RateLimitedException;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The JDK client against refusals naming a delay of a day on a server that shows no limit: a
 * stray one costs only its own call, {@code send} and {@code sendAsync} alike, and a server that
 * means it is believed once the calls after confirm it.
 */
@Timeout(60)
class UnusableHintsJdkTest {
  private final JdkHarness h = new JdkHarness();
  /** Every this many answers is a refusal saying "come back in a day"; 1: every one. */
  private final AtomicInteger refuseEvery = new AtomicInteger(4);
  private final AtomicInteger answered = new AtomicInteger();

  UnusableHintsJdkTest() throws IOException {
    h.server.setDispatcher(new Dispatcher() {
      @Override
      public MockResponse dispatch(RecordedRequest request) {
        return answered.incrementAndGet() % refuseEvery.get() == 0
            ? new MockResponse.Builder().code(429).addHeader("Retry-After", "86400").body("a day").build()
            : new MockResponse.Builder().code(200).body("ok").build();
      }
    });
  }

  @AfterEach
  void close() throws IOException {
    h.close();
  }

  @Test
  void sendGivesUpOnlyTheCallsRefused() throws Exception {
    HttpClient client = h.polite().build();
    int refused = 0;
    for (int i = 0; i < 20; i++) {
      int code = h.send(client, h.get("/" + i)).statusCode();
      assertThat(code).as("call %d", i).isIn(200, 429);
      refused += code == 429 ? 1 : 0;
    }
    assertThat(refused).isEqualTo(5);
    assertThat(h.server.getRequestCount()).as("each call once").isEqualTo(20);
    assertThat(h.clock.elapsed()).as("none waited").isZero();
  }

  @Test
  void sendBelievesAServerThatMeansIt() throws Exception {
    HttpClient client = h.polite().build();
    refuseEvery.set(1_000);
    for (int i = 0; i < 5; i++) {
      assertThat(h.send(client, h.get("/" + i)).statusCode()).isEqualTo(200);
    }
    refuseEvery.set(1);
    for (int i = 0; i < 4; i++) {
      assertThat(h.send(client, h.get("/spent" + i)).statusCode()).isEqualTo(429);
    }
    assertThatThrownBy(() -> h.send(client, h.get("/after")))
        .isInstanceOf(RateLimitedException.class).hasMessageContaining("paused");
    assertThat(h.server.getRequestCount()).isEqualTo(9);
  }

  @Test
  void sendAsyncGivesUpOnlyTheCallsRefused() throws Exception {
    ManualScheduler scheduler = new ManualScheduler(h.clock);
    HttpClient client = h.politeAsync(scheduler).build();

    List<CompletableFuture<HttpResponse<String>>> calls = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      calls.add(client.sendAsync(h.get("/" + i), h.strings()));
    }
    CompletableFuture<Void> all = CompletableFuture.allOf(calls.toArray(new CompletableFuture<?>[0]));
    // The clock stays put: no call may wait here, and one that did would never end. Between
    // tasks, the JDK client's threads carry the answers; the next task scheduled wakes the loop.
    while (!all.isDone()) {
      CompletableFuture<Void> added = scheduler.nextAdded();
      if (!scheduler.runDue()) {
        CompletableFuture.anyOf(all, added).get(20, TimeUnit.SECONDS);
      }
    }

    int refused = 0;
    for (CompletableFuture<HttpResponse<String>> call : calls) {
      int code = call.join().statusCode();
      assertThat(code).isIn(200, 429);
      refused += code == 429 ? 1 : 0;
    }
    assertThat(refused).isEqualTo(5);
    assertThat(h.server.getRequestCount()).as("each call once").isEqualTo(20);
    assertThat(h.clock.elapsed()).as("none waited").isZero();
    assertThat(scheduler.pending()).isZero();
  }
}
