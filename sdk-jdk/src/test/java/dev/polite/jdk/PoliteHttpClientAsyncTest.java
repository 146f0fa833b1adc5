package dev.polite.jdk;

import static dev.polite.testing.Answers.status;
import dev.polite.testing.ManualScheduler;
import static org.assertj.core.api.Assertions.assertThat;

import dev.polite.CallContext;
import dev.polite.KeySnapshot;
import dev.polite.PoliteListener;
import dev.polite.RateLimitedException;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The JDK client made polite, asynchronously: {@code sendAsync}'s waits are tasks on a scheduler
 * the test runs by hand, on the fake clock, so a call that waits holds no thread at all; a
 * cancelled future gives its call's place back at once.
 */
@Timeout(60)
class PoliteHttpClientAsyncTest {
  private final JdkHarness h = new JdkHarness();
  private final ManualScheduler scheduler = new ManualScheduler(h.clock);
  private final ExecutorService jdkThreads = Executors.newFixedThreadPool(2, r -> {
    Thread t = new Thread(r, "jdk-client");
    t.setDaemon(true);
    return t;
  });
  private final HttpClient jdk = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
      .executor(jdkThreads).build();

  PoliteHttpClientAsyncTest() throws IOException {}

  @AfterEach
  void close() throws IOException {
    jdkThreads.shutdownNow();
    h.close();
  }

  private PoliteHttpClient.Builder polite() {
    return PoliteHttpClient.builder(jdk).clock(h.clock, h.clock).wallClock(h.clock)
        .random(new java.util.Random(42)).scheduler(scheduler);
  }

  /** Runs the scheduler's tasks as the call needs them until {@code call} completes; its answer. */
  private <T> T runUntilDone(CompletableFuture<T> call) throws Exception {
    return scheduler.runUntilDone(call);
  }

  /**
   * Waits, on real time, for what the JDK client's threads are doing where nothing tells when it
   * is done (an aborted attempt let go); fails after 10 s.
   */
  private static void await(BooleanSupplier done, String what) throws InterruptedException {
    long giveUpAt = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!done.getAsBoolean()) {
      assertThat(System.nanoTime()).as("still waiting for " + what).isLessThan(giveUpAt);
      Thread.sleep(2); // the JDK client's threads are at work: a bounded wait, not a timed assertion
    }
  }

  @Test
  void aRefusalIsRetriedAsATaskAfterItsRetryAfterAndNeverReachesTheCallersHandler()
      throws Exception {
    h.server.enqueue(status(429, "Retry-After", "2"));
    h.server.enqueue(status(200));
    HttpClient client = polite().build();

    CompletableFuture<HttpResponse<String>> call = client.sendAsync(h.get("/a"), h.strings());
    scheduler.awaitTask();
    assertThat(scheduler.pending()).as("the retry's task").isEqualTo(1);
    assertThat(call).as("the 429 is not the answer").isNotDone();

    HttpResponse<String> response = runUntilDone(call);

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.body()).isEqualTo("hello");
    assertThat(h.handled).as("the refusal was discarded unread").containsExactly(200);
    assertThat(h.clock.elapsed()).isGreaterThanOrEqualTo(Duration.ofSeconds(2));
  }

  @Test
  void aDiscardedRefusalLeavesItsConnectionForTheRetry() throws Exception {
    h.server.enqueue(status(429, "Retry-After", "1"));
    h.server.enqueue(status(200));
    HttpClient client = polite().build();

    runUntilDone(client.sendAsync(h.get("/a"), h.strings()));

    RecordedRequest refused = h.server.takeRequest();
    RecordedRequest retried = h.server.takeRequest();
    assertThat(retried.getConnectionIndex()).as("the refusal's body was read to its end, "
        + "so its connection went back to the pool").isEqualTo(refused.getConnectionIndex());
  }

  @Test
  void aThousandCallsBehindASlowPaceWaitWithoutAThreadAndCancelledGiveTheirPlacesBack()
      throws Exception {
    h.server.setDispatcher(new Dispatcher() {
      @Override
      public MockResponse dispatch(RecordedRequest request) {
        return status(200);
      }
    });
    AtomicInteger sent = new AtomicInteger();
    PoliteHttpClient client = polite().startingRate(1).cautiousStart(false)
        .maxWait(Duration.ofHours(1)).addListener(new PoliteListener() {
          @Override
          public void sending(CallContext call, Duration waited) {
            sent.incrementAndGet();
          }
        }).build();
    int before = ManagementFactory.getThreadMXBean().getThreadCount();

    List<CompletableFuture<HttpResponse<String>>> calls = new ArrayList<>();
    java.net.http.HttpRequest untimed = java.net.http.HttpRequest.newBuilder(h.uri("/a")).build();
    for (int i = 0; i < 1_000; i++) {
      calls.add(client.sendAsync(untimed, h.strings()));
    }
    calls.get(0).get(10, TimeUnit.SECONDS); // the first call, which went at once
    int during = ManagementFactory.getThreadMXBean().getThreadCount();

    assertThat(sent).as("one call a second: the first went, the rest wait").hasValue(1);
    assertThat(scheduler.pending()).as("each waiting call is a task, not a thread").isEqualTo(999);
    assertThat(during - before).as("threads made while 999 calls wait").isLessThan(20);

    for (CompletableFuture<HttpResponse<String>> waiting : calls.subList(1, calls.size())) {
      assertThat(waiting.cancel(true)).isTrue();
    }
    assertThat(scheduler.pending()).as("a cancelled call's task goes with it").isZero();
    KeySnapshot key = client.snapshots().get(0);
    assertThat(key.inFlight()).isZero();

    CompletableFuture<HttpResponse<String>> next = client.sendAsync(h.get("/b"), h.strings());
    assertThat(runUntilDone(next).statusCode()).isEqualTo(200);
    assertThat(h.clock.elapsed()).as("the cancelled calls' turns were given back: the next "
        + "call waited one second, not a thousand").isEqualTo(Duration.ofSeconds(1));
    assertThat(h.server.getRequestCount()).isEqualTo(2);
  }

  @Test
  void cancellingACallOnTheWireCancelsTheAttemptAndGivesItsPlaceBack() throws Exception {
    h.server.enqueue(new MockResponse.Builder().code(200).headersDelay(5, TimeUnit.SECONDS).build());
    PoliteHttpClient client = polite().build();

    CompletableFuture<HttpResponse<String>> call = client.sendAsync(h.get("/slow"), h.strings());
    assertThat(h.server.takeRequest(10, TimeUnit.SECONDS)).as("on the wire").isNotNull();
    call.cancel(true);

    assertThat(call).isCancelled();
    await(() -> client.snapshots().get(0).inFlight() == 0, "the aborted attempt to be let go");
    assertThat(h.handled).isEmpty();
  }

  @Test
  void aWaitLongerThanTheTimeoutFailsAtOnceOnTheClientsExecutorWithoutSending()
      throws Exception {
    h.server.enqueue(status(429, "Retry-After", "30"));
    HttpClient client = polite().maxRateLimitRetries(0).build();
    assertThat(client.sendAsync(h.get("/a"), h.strings()).get(10, TimeUnit.SECONDS).statusCode())
        .isEqualTo(429);

    List<String> threads = new ArrayList<>();
    CompletableFuture<Throwable> heard;
    synchronized (jdkThreads) {
      // The client's executor is held up until the test listens: what completes the call is
      // then seen running, wherever it runs.
      jdkThreads.submit(() -> {
        synchronized (jdkThreads) {
          return null;
        }
      });
      jdkThreads.submit(() -> {
        synchronized (jdkThreads) {
          return null;
        }
      });
      CompletableFuture<HttpResponse<String>> call = client.sendAsync(
          java.net.http.HttpRequest.newBuilder(h.uri("/b")).timeout(Duration.ofSeconds(5)).build(),
          h.strings());
      assertThat(call).as("not completed on the caller's thread").isNotDone();
      heard = call.handle((r, e) -> {
        synchronized (threads) {
          threads.add(Thread.currentThread().getName());
        }
        return e;
      });
    }

    assertThat(heard.get(10, TimeUnit.SECONDS)).isInstanceOf(RateLimitedException.class);
    assertThat(threads).as("completed on the client's executor, not the caller's or the scheduler's")
        .containsExactly("jdk-client");
    assertThat(h.server.getRequestCount()).isEqualTo(1);
    assertThat(h.clock.elapsed()).isZero();
  }

  @Test
  void aFutureCancelledBeforeItsTurnNeverSends() throws Exception {
    h.server.enqueue(status(200));
    HttpClient client = polite().startingRate(1).cautiousStart(false).build();
    assertThat(client.sendAsync(h.get("/a"), h.strings()).get(10, TimeUnit.SECONDS).statusCode())
        .isEqualTo(200);

    CompletableFuture<HttpResponse<String>> waiting = client.sendAsync(h.get("/b"), h.strings());
    waiting.cancel(true);
    while (scheduler.runNext()) {
      // a late task of the cancelled call must do nothing
    }

    assertThat(waiting).isCancelled();
    assertThat(h.server.getRequestCount()).isEqualTo(1);
    try {
      waiting.join();
    } catch (CancellationException expected) {
      // the JDK's way: a cancelled future throws CancellationException
    }
  }
}
