package dev.polite.okhttp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.polite.RateLimitedException;
import java.util.concurrent.atomic.AtomicInteger;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.RecordedRequest;
import okhttp3.OkHttpClient;
import okhttp3.Response;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Refusals naming a delay of a day on a server that shows no limit: a stray one costs only its
 * own call, blocking and asynchronous alike, and a server that means it (every call refused) is
 * believed after the refusals that confirm it, then its calls fail at once.
 */
@Timeout(30)
class UnusableHintsTest extends HarnessTest {
  /** Every this many answers is a refusal saying "come back in a day"; 1: every one. */
  private final AtomicInteger refuseEvery = new AtomicInteger(4);
  private final AtomicInteger answered = new AtomicInteger();

  {
    h.server.setDispatcher(new Dispatcher() {
      @Override
      public MockResponse dispatch(RecordedRequest request) {
        return answered.incrementAndGet() % refuseEvery.get() == 0
            ? new MockResponse.Builder().code(429).addHeader("Retry-After", "86400").body("a day").build()
            : new MockResponse.Builder().code(200).body("ok").build();
      }
    });
  }

  @Test
  void blockingStrayRefusalsCostOnlyTheirOwnCalls() throws Exception {
    OkHttpClient client = h.client(h.polite());
    int refused = 0;
    for (int i = 0; i < 20; i++) {
      try (Response response = client.newCall(h.get("/" + i)).execute()) {
        refused += response.code() == 429 ? 1 : 0;
        assertThat(response.code()).as("call %d", i).isIn(200, 429);
      }
    }
    assertThat(refused).as("every 4th given up with its refusal").isEqualTo(5);
    assertThat(h.sends).as("each call once, none waiting").hasSize(20).containsOnly(0.0);
  }

  @Test
  void aServerThatMeansItIsBelievedOnceTheCallsAfterConfirmIt() throws Exception {
    OkHttpClient client = h.client(h.polite());
    refuseEvery.set(1_000);
    for (int i = 0; i < 5; i++) {
      try (Response response = client.newCall(h.get("/" + i)).execute()) {
        assertThat(response.code()).isEqualTo(200);
      }
    }
    refuseEvery.set(1);
    for (int i = 0; i < 4; i++) {
      try (Response response = client.newCall(h.get("/spent" + i)).execute()) {
        assertThat(response.code()).as("refused, and the call cannot wait a day").isEqualTo(429);
      }
    }
    assertThatThrownBy(() -> client.newCall(h.get("/after")).execute())
        .isInstanceOf(RateLimitedException.class).hasMessageContaining("paused");
    assertThat(h.sends).as("the doubted refusal, three that confirm it, nothing after").hasSize(9);
  }

  @Test
  void asyncStrayRefusalsCostOnlyTheirOwnCalls() throws Exception {
    FakeScheduler scheduler = new FakeScheduler(h.clock);
    OkHttpClient client = h.client(h.polite());
    PoliteCallFactory calls = PoliteCallFactory.builder(client).scheduler(scheduler).build();
    Outcomes outcomes = new Outcomes();

    for (int i = 0; i < 20; i++) {
      calls.newCall(h.get("/" + i)).enqueue(outcomes);
    }
    scheduler.runUntil(() -> outcomes.size() == 20 && client.dispatcher().runningCallsCount() == 0,
        client.dispatcher());

    assertThat(outcomes.ended).as("answered, none failed").containsOnly(200, 429);
    assertThat(outcomes.ended).filteredOn(o -> o.equals(429)).hasSize(5);
    assertThat(h.sends).as("each call once").hasSize(20);
    assertThat(h.clock.elapsed()).as("and none waited").isZero();
  }
}
