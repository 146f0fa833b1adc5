package dev.polite.jdk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.polite.RateLimitedException;
import dev.polite.testing.FakeClock;
import java.io.IOException;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The JDK client on a host with two budgets it never names (X's per-endpoint limits): the tight
 * endpoint's spent budget neither pauses nor paces the generous one.
 */
class UnnamedBudgetsJdkTest {
  private final JdkHarness h = new JdkHarness();
  private final AtomicInteger coreRefused = new AtomicInteger();

  UnnamedBudgetsJdkTest() throws IOException {
    h.server.setDispatcher(new Dispatcher() {
      private long tightUsed;

      @Override
      public synchronized MockResponse dispatch(RecordedRequest request) {
        boolean tight = request.getUrl().encodedPath().startsWith("/2/users");
        long limit = tight ? 3 : 900;
        long window = tight ? 60 : 900;
        long used = tight ? ++tightUsed : 1;
        boolean ok = used <= limit;
        if (!ok && !tight) {
          coreRefused.incrementAndGet();
        }
        long resetEpoch = (h.clock.millis() - FakeClock.EPOCH_MILLIS) / 1000 + FakeClock.EPOCH_MILLIS / 1000 + window;
        return new MockResponse.Builder().code(ok ? 200 : 429)
            .addHeader("x-rate-limit-limit", limit)
            .addHeader("x-rate-limit-remaining", Math.max(0, limit - used))
            .addHeader("x-rate-limit-reset", resetEpoch)
            .body(ok ? "ok" : "Too Many Requests").build();
      }
    });
  }

  @AfterEach
  void close() throws IOException {
    h.close();
  }

  @Test
  void aSpentTightBudgetNeitherPausesNorPacesTheGenerousOne() throws Exception {
    HttpClient client = h.polite().maxWait(Duration.ofSeconds(5)).throwWhenRateLimited(true).build();

    assertThat(h.send(client, h.get("/2/tweets/1")).statusCode()).isEqualTo(200);
    for (int i = 0; i < 3; i++) {
      assertThat(h.send(client, h.get("/2/users/by/username/u" + i)).statusCode()).isEqualTo(200);
    }
    assertThatThrownBy(() -> h.send(client, h.get("/2/users/by/username/more")))
        .isInstanceOf(RateLimitedException.class);
    for (int i = 0; i < 20; i++) {
      assertThat(h.send(client, h.get("/2/tweets/" + (100 + i))).statusCode()).isEqualTo(200);
    }

    assertThat(h.clock.elapsedSeconds()).as("the generous budget waited for the tight one").isLessThan(0.01);
    assertThat(coreRefused.get()).isZero();
    assertThat(h.server.getRequestCount()).as("the tight budget's fourth call was never sent").isEqualTo(24);
  }
}
