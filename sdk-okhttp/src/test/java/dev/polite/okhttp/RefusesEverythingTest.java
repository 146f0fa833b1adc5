package dev.polite.okhttp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.polite.PoliteListener;
import dev.polite.RateLimitedException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.RecordedRequest;
import okhttp3.OkHttpClient;
import okhttp3.Response;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A limiter that refuses everything ({@code 429 Retry-After: 0} to every call, a broken or
 * blocking one): known as such from its refusals, then its calls fail at once and one probe at a
 * time re-verifies it, blocking and asynchronous alike. Without it each call waited out its whole
 * max wait, sending a retry every time it was let.
 */
@Timeout(30)
class RefusesEverythingTest extends HarnessTest {
  private final AtomicBoolean refusing = new AtomicBoolean(true);
  private final List<String> heard = new CopyOnWriteArrayList<>();

  {
    h.server.setDispatcher(new Dispatcher() {
      @Override
      public MockResponse dispatch(RecordedRequest request) {
        return refusing.get()
            ? new MockResponse.Builder().code(429).addHeader("Retry-After", "0").body("no").build()
            : new MockResponse.Builder().code(200).body("ok").build();
      }
    });
  }

  private PoliteInterceptor.Builder polite() {
    return h.polite().addListener(new PoliteListener() {
      @Override
      public void refusesEverything(String key, int refusals, Duration probeIn) {
        heard.add("refuses everything after " + refusals + ", probe in " + probeIn.toMillis() + " ms");
      }

      @Override
      public void resumed(String key) {
        heard.add("resumed");
      }
    });
  }

  @Test
  void blockingCallsFailAtOnceOnceTheKeyIsKnownAndOneProbeReVerifiesIt() throws Exception {
    OkHttpClient client = h.client(polite());

    try (Response first = client.newCall(h.get("/0")).execute()) {
      assertThat(first.code()).as("the refusal it ended with, untouched").isEqualTo(429);
      assertThat(first.body().string()).isEqualTo("no");
    }
    // Refused at 0, then probed as a bare refusal's backoff would (Retry-After: 0 names no time):
    // the round at 2.25 s, the first past 2 s, shows a key that refuses everything.
    assertThat(h.sends).containsExactly(0.0, 0.5, 1.0, 1.5, 2.25);
    assertThat(heard).filteredOn(e -> e.startsWith("refuses"))
        .containsExactly("refuses everything after 5, probe in 1125 ms");
    assertThat(heard).endsWith("refuses everything after 5, probe in 1125 ms");
    for (int i = 1; i < 10; i++) {
      assertThatThrownBy(() -> client.newCall(h.get("/more")).execute())
          .isInstanceOf(RateLimitedException.class)
          .hasMessageContaining("refuses every call");
    }
    assertThat(h.sends).as("nothing more sent").hasSize(5);
    assertThat(h.clock.totalSleptNanos()).as("no call waited").isEqualTo(Duration.ofMillis(2_250).toNanos());

    h.clock.advance(Duration.ofMillis(1_125));
    try (Response probe = client.newCall(h.get("/probe")).execute()) {
      assertThat(probe.code()).isEqualTo(429);
    }
    assertThat(h.sends).as("the probe alone, refused: the next in half the run").endsWith(3.375);
    assertThatThrownBy(() -> client.newCall(h.get("/more")).execute()).isInstanceOf(RateLimitedException.class);

    refusing.set(false);
    h.clock.advance(Duration.ofNanos(1_687_500_000L));
    try (Response probe = client.newCall(h.get("/probe")).execute()) {
      assertThat(probe.code()).isEqualTo(200);
    }
    try (Response next = client.newCall(h.get("/next")).execute()) {
      assertThat(next.code()).as("the key admits again: calls go").isEqualTo(200);
    }
    assertThat(heard).endsWith("resumed");
    assertThat(h.sends).hasSize(8);
    h.assertEveryBodyClosed();
  }

  @Test
  void asyncCallsFailAtOnceToo() throws Exception {
    FakeScheduler scheduler = new FakeScheduler(h.clock);
    OkHttpClient client = h.client(polite());
    PoliteCallFactory calls = PoliteCallFactory.builder(client).scheduler(scheduler).build();
    Outcomes outcomes = new Outcomes();

    for (int i = 0; i < 10; i++) {
      calls.newCall(h.get("/" + i)).enqueue(outcomes);
    }
    scheduler.runUntil(() -> outcomes.size() == 10 && client.dispatcher().runningCallsCount() == 0,
        client.dispatcher());

    assertThat(heard).filteredOn(e -> e.startsWith("refuses")).hasSize(1);
    assertThat(outcomes.ended).as("the calls that were refused end with their refusal, the rest fail at once")
        .isSubsetOf(429, RateLimitedException.class.getSimpleName());
    assertThat(h.sends).as("a round at a time: 0, 0.5, 1, 1.5, 2.25 s").hasSizeLessThanOrEqualTo(5);
    assertThat(h.clock.elapsed()).as("every call ended once the key was known").isLessThanOrEqualTo(
        Duration.ofMillis(2_250));
    assertThat(scheduler.pending()).as("nothing left waiting").isZero();
    h.assertEveryBodyClosed();
  }
}
