package dev.polite.jdk;

import dev.polite.testing.ManualScheduler;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.polite.CallContext;
import dev.polite.PoliteListener;
import dev.polite.RateLimitSignals;
import dev.polite.RateLimitedException;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The JDK client against a limiter that refuses everything ({@code 429 Retry-After: 0} to every
 * call): known as such from its refusals, then its calls fail at once, {@code send} and
 * {@code sendAsync} alike, and one probe at a time re-verifies it.
 */
@Timeout(60)
class RefusesEverythingJdkTest {
  private final JdkHarness h = new JdkHarness();
  private final AtomicBoolean refusing = new AtomicBoolean(true);
  private final List<String> known = new CopyOnWriteArrayList<>();

  RefusesEverythingJdkTest() throws IOException {
    h.server.setDispatcher(new Dispatcher() {
      @Override
      public MockResponse dispatch(RecordedRequest request) {
        return refusing.get()
            ? new MockResponse.Builder().code(429).addHeader("Retry-After", "0").body("no").build()
            : new MockResponse.Builder().code(200).body("ok").build();
      }
    });
  }

  @AfterEach
  void close() throws IOException {
    h.close();
  }

  /** Attempts let go whose refusal has not been learnt yet (every answer here is one, until the end). */
  private final AtomicInteger onTheWire = new AtomicInteger();
  private final Semaphore answered = new Semaphore(0);

  private PoliteHttpClient.Builder heard(PoliteHttpClient.Builder builder) {
    return builder.addListener(new PoliteListener() {
      @Override
      public void refusesEverything(String key, int refusals, Duration probeIn) {
        known.add(refusals + " refused, probe in " + probeIn.toMillis() + " ms");
      }

      @Override
      public void sending(CallContext call, Duration waited) {
        onTheWire.incrementAndGet();
      }

      @Override
      public void rateLimited(CallContext call, RateLimitSignals signals) {
        onTheWire.decrementAndGet();
        answered.release();
      }
    });
  }

  @Test
  void sendFailsAtOnceOnceTheKeyIsKnownAndOneProbeReVerifiesIt() throws Exception {
    HttpClient client = heard(h.polite()).build();

    HttpResponse<String> first = h.send(client, h.get("/0"));
    assertThat(first.statusCode()).as("the refusal it ended with").isEqualTo(429);
    assertThat(first.body()).isEqualTo("no");
    assertThat(h.server.getRequestCount()).as("at 0, 0.5, 1, 1.5 and 2.25 s").isEqualTo(5);
    assertThat(known).containsExactly("5 refused, probe in 1125 ms");
    for (int i = 1; i < 10; i++) {
      assertThatThrownBy(() -> h.send(client, h.get("/more")))
          .isInstanceOf(RateLimitedException.class)
          .hasMessageContaining("refuses every call");
    }
    assertThat(h.server.getRequestCount()).as("nothing more sent").isEqualTo(5);

    refusing.set(false);
    h.clock.advance(Duration.ofMillis(1_125));
    assertThat(h.send(client, h.get("/probe")).statusCode()).isEqualTo(200);
    assertThat(h.send(client, h.get("/next")).statusCode()).isEqualTo(200);
    assertThat(h.server.getRequestCount()).isEqualTo(7);
  }

  @Test
  void sendAsyncFailsAtOnceToo() throws Exception {
    ManualScheduler scheduler = new ManualScheduler(h.clock);
    HttpClient client = heard(h.politeAsync(scheduler)).build();

    List<CompletableFuture<HttpResponse<String>>> calls = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      calls.add(client.sendAsync(h.get("/" + i), h.strings()));
    }
    CompletableFuture<Void> all = CompletableFuture.allOf(calls.toArray(new CompletableFuture<?>[0]));
    while (!all.isDone()) {
      // Time moves only while no attempt is on the wire, so that no call's deadline passes while
      // the JDK client's threads carry its answer.
      if (onTheWire.get() > 0) {
        assertThat(answered.tryAcquire(20, TimeUnit.SECONDS)).as("an answer").isTrue();
        continue;
      }
      CompletableFuture<Void> added = scheduler.nextAdded();
      if (!scheduler.runNext()) {
        // A call's next step, or the end (failed calls are the point: their outcome is read below).
        CompletableFuture.anyOf(all, added).handle((done, failed) -> null).get(20, TimeUnit.SECONDS);
      }
    }

    assertThat(known).hasSize(1);
    for (CompletableFuture<HttpResponse<String>> call : calls) {
      try {
        assertThat(call.join().statusCode()).isEqualTo(429);
      } catch (CompletionException e) {
        assertThat(e.getCause()).isInstanceOf(RateLimitedException.class);
      }
    }
    assertThat(h.server.getRequestCount()).as("a round at a time until the key was known").isLessThanOrEqualTo(5);
    assertThat(scheduler.pending()).as("nothing left waiting").isZero();
  }
}
