package dev.polite.httpclient5;

import static dev.polite.httpclient5.Hc5Harness.status;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.polite.RateLimitedException;
import dev.polite.testing.FakeClock;
import dev.polite.testing.ManualScheduler;
import java.io.IOException;
import java.time.Duration;
import java.util.Random;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.apache.hc.client5.http.async.methods.SimpleHttpRequest;
import org.apache.hc.client5.http.async.methods.SimpleHttpResponse;
import org.apache.hc.client5.http.async.methods.SimpleRequestBuilder;
import org.apache.hc.client5.http.async.methods.SimpleRequestProducer;
import org.apache.hc.client5.http.async.methods.SimpleResponseConsumer;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.async.CloseableHttpAsyncClient;
import org.apache.hc.client5.http.impl.async.HttpAsyncClients;
import org.apache.hc.client5.http.impl.nio.PoolingAsyncClientConnectionManager;
import org.apache.hc.client5.http.impl.nio.PoolingAsyncClientConnectionManagerBuilder;
import org.apache.hc.core5.concurrent.FutureCallback;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.nio.AsyncRequestProducer;
import org.apache.hc.core5.http.nio.entity.AsyncEntityProducerWrapper;
import org.apache.hc.core5.http.nio.entity.AsyncEntityProducers;
import org.apache.hc.core5.http.nio.support.AsyncRequestBuilder;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.util.Timeout;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * HttpClient 5's async client made polite by its chain handler: its waits are tasks on a
 * scheduler the test runs by hand, on the fake clock, so a call that waits holds no thread and no
 * connection (the pool has one); a kept answer streams to the caller's consumer, a refusal is
 * discarded; a cancelled future ends its wait and sends nothing more.
 */
@org.junit.jupiter.api.Timeout(60)
class PoliteAsyncExecChainHandlerTest {
  private final MockWebServer server = new MockWebServer();
  private final FakeClock clock = new FakeClock();
  private final ManualScheduler scheduler = new ManualScheduler(clock);
  private final ExecutorService executor = Executors.newSingleThreadExecutor(r -> {
    Thread t = new Thread(r, "polite-executor");
    t.setDaemon(true);
    return t;
  });
  private final PoolingAsyncClientConnectionManager pool =
      PoolingAsyncClientConnectionManagerBuilder.create().setMaxConnTotal(1).setMaxConnPerRoute(1).build();
  private CloseableHttpAsyncClient client;

  PoliteAsyncExecChainHandlerTest() throws IOException {
    server.start();
  }

  @AfterEach
  void close() throws IOException {
    if (client != null) {
      client.close(CloseMode.GRACEFUL);
    }
    executor.shutdownNow();
    server.close();
  }

  private PoliteAsyncExecChainHandler.Builder polite() {
    return PoliteAsyncExecChainHandler.builder().clock(clock, clock).wallClock(clock)
        .random(new Random(42)).scheduler(scheduler).executor(executor);
  }

  /** An async client with {@code handler} installed the documented way, on the pool of one. */
  private CloseableHttpAsyncClient client(PoliteAsyncExecChainHandler handler) {
    client = handler.install(HttpAsyncClients.custom().setConnectionManager(pool)
        .setDefaultRequestConfig(RequestConfig.custom()
            .setConnectionRequestTimeout(Hc5Harness.LEASE_TIMEOUT).build())).build();
    client.start();
    return client;
  }

  /** A call: HttpClient's future (to cancel) and a completable view of it (to wait on). */
  private record Call(Future<SimpleHttpResponse> future, CompletableFuture<SimpleHttpResponse> done) {}

  private Call execute(SimpleHttpRequest request) {
    return execute(SimpleRequestProducer.create(request));
  }

  private Call execute(AsyncRequestProducer request) {
    CompletableFuture<SimpleHttpResponse> done = new CompletableFuture<>();
    Future<SimpleHttpResponse> future = client.execute(request, SimpleResponseConsumer.create(),
        new FutureCallback<>() {
          @Override
          public void completed(SimpleHttpResponse result) {
            done.complete(result);
          }

          @Override
          public void failed(Exception ex) {
            done.completeExceptionally(ex);
          }

          @Override
          public void cancelled() {
            done.cancel(false);
          }
        });
    return new Call(future, done);
  }

  private String url(String path) {
    return server.url(path).toString();
  }

  /** Runs polite's tasks as the call needs them, until it completes; its answer. */
  private SimpleHttpResponse runUntilDone(Call call) throws Exception {
    return scheduler.runUntilDone(call.done());
  }

  @Test
  void aRefusalIsRetriedAsATaskAfterItsRetryAfterAndTheCallerGetsTheAnswerWithItsBody()
      throws Exception {
    server.enqueue(status(429, "Retry-After", "2"));
    server.enqueue(status(200));
    client(polite().build());

    Call call = execute(SimpleRequestBuilder.get(url("/a")).build());
    scheduler.awaitTask();
    assertThat(call.done()).as("the 429 is not the answer").isNotDone();

    SimpleHttpResponse response = runUntilDone(call);

    assertThat(response.getCode()).isEqualTo(200);
    assertThat(response.getBodyText()).isEqualTo("hello");
    assertThat(server.getRequestCount()).isEqualTo(2);
    assertThat(clock.elapsed()).isGreaterThanOrEqualTo(Duration.ofSeconds(2));
  }

  @Test
  void aWaitingCallHoldsNoConnectionSoThePoolOfOneServesAnotherMeanwhile() throws Exception {
    try (MockWebServer other = new MockWebServer()) {
      other.start();
      other.enqueue(status(200));
      server.enqueue(status(429, "Retry-After", "10"));
      server.enqueue(status(200));
      client(polite().build());

      Call waiting = execute(SimpleRequestBuilder.get(url("/a")).build());
      scheduler.awaitTask();
      assertThat(pool.getTotalStats().getLeased()).as("the refusal's connection went back").isZero();
      Call meanwhile = execute(SimpleRequestBuilder.get(other.url("/b").toString()).build());

      assertThat(meanwhile.done().get(10, TimeUnit.SECONDS).getCode())
          .as("served on the pool's one connection while the first call waits").isEqualTo(200);
      assertThat(runUntilDone(waiting).getCode()).isEqualTo(200);
    }
  }

  @Test
  void aRefusalsConnectionIsKeptAliveForTheRetry() throws Exception {
    server.enqueue(status(429, "Retry-After", "1"));
    server.enqueue(status(200));
    client(polite().build());

    runUntilDone(execute(SimpleRequestBuilder.get(url("/a")).build()));

    RecordedRequest refused = server.takeRequest();
    RecordedRequest retried = server.takeRequest();
    assertThat(retried.getConnectionIndex()).as("the refusal's body was discarded to its end")
        .isEqualTo(refused.getConnectionIndex());
  }

  @Test
  void aSpentXRateLimitQuotaDelaysTheNextCallAsATask() throws Exception {
    server.enqueue(status(200, "X-RateLimit-Limit", "10", "X-RateLimit-Remaining", "0",
        "X-RateLimit-Reset", "3"));
    server.enqueue(status(200));
    client(polite().build());

    assertThat(runUntilDone(execute(SimpleRequestBuilder.get(url("/a")).build())).getCode())
        .isEqualTo(200);
    Call next = execute(SimpleRequestBuilder.get(url("/b")).build());
    scheduler.awaitTask();
    assertThat(server.getRequestCount()).as("the next call waits for the reset").isEqualTo(1);

    assertThat(runUntilDone(next).getCode()).isEqualTo(200);
    assertThat(clock.elapsed()).isGreaterThanOrEqualTo(Duration.ofSeconds(3));
    assertThat(server.getRequestCount()).isEqualTo(2);
  }

  @Test
  void aProducerThatIsNotRepeatableIsSentOnceAndItsRefusalHandedBack() throws Exception {
    server.enqueue(status(429, "Retry-After", "1"));
    client(polite().build());
    AsyncRequestProducer once = AsyncRequestBuilder.post(url("/upload"))
        .setEntity(new AsyncEntityProducerWrapper(
            AsyncEntityProducers.create("once", ContentType.TEXT_PLAIN)) {
          @Override
          public boolean isRepeatable() {
            return false;
          }
        }).build();

    SimpleHttpResponse response = runUntilDone(execute(once));

    assertThat(response.getCode()).isEqualTo(429);
    assertThat(response.getBodyText()).isEqualTo("refused");
    assertThat(server.getRequestCount()).isEqualTo(1);
  }

  @Test
  void aRepeatableBodyIsRewoundAndResentWhole() throws Exception {
    server.enqueue(status(429, "Retry-After", "1"));
    server.enqueue(status(200));
    client(polite().build());

    SimpleHttpResponse response = runUntilDone(execute(SimpleRequestBuilder.post(url("/orders"))
        .setBody("{\"n\":1}", ContentType.APPLICATION_JSON).build()));

    assertThat(response.getCode()).isEqualTo(200);
    assertThat(server.takeRequest().getBody().utf8()).isEqualTo("{\"n\":1}");
    assertThat(server.takeRequest().getBody().utf8()).as("the same body, again").isEqualTo("{\"n\":1}");
  }

  @Test
  void aWaitPastTheMaxWaitIsNotBegunAndTheRefusalIsReturnedWithItsBody() throws Exception {
    server.enqueue(status(429, "Retry-After", "120"));
    client(polite().maxWait(Duration.ofSeconds(10)).build());

    SimpleHttpResponse response = runUntilDone(execute(SimpleRequestBuilder.get(url("/a")).build()));

    assertThat(response.getCode()).isEqualTo(429);
    assertThat(response.getBodyText()).isEqualTo("refused");
    assertThat(scheduler.pending()).isZero();
    assertThat(clock.elapsed()).isZero();
    assertThat(server.getRequestCount()).isEqualTo(1);
  }

  @Test
  void aRefusalPoliteGivesUpOnFailsTheCallWhenAsked() throws Exception {
    server.enqueue(status(429, "Retry-After", "120"));
    client(polite().maxWait(Duration.ofSeconds(10)).throwWhenRateLimited(true).build());

    Call call = execute(SimpleRequestBuilder.get(url("/a")).build());

    assertThatThrownBy(() -> call.done().get(10, TimeUnit.SECONDS))
        .isInstanceOf(ExecutionException.class).cause().isInstanceOf(RateLimitedException.class);
    assertThat(server.getRequestCount()).isEqualTo(1);
    assertThat(pool.getTotalStats().getLeased()).isZero();
  }

  @Test
  void aRetryAfterOfADayGivesUpAtOnceRatherThanHang() throws Exception {
    server.enqueue(status(429, "Retry-After", "86400"));
    client(polite().build());

    SimpleHttpResponse response = runUntilDone(execute(SimpleRequestBuilder.get(url("/a")).build()));

    assertThat(response.getCode()).isEqualTo(429);
    assertThat(server.getRequestCount()).isEqualTo(1);
    assertThat(clock.elapsed()).isZero();
  }

  @Test
  void cancellingTheFutureEndsTheWaitAtOnceAndSendsNothingMore() throws Exception {
    server.enqueue(status(429, "Retry-After", "10"));
    server.enqueue(status(200));
    PoliteAsyncExecChainHandler polite = polite().build();
    client(polite);

    Call call = execute(SimpleRequestBuilder.get(url("/a")).build());
    scheduler.awaitTask();
    assertThat(call.future().cancel(true)).isTrue();

    assertThat(scheduler.pending()).as("the wait's task went with it").isZero();
    while (scheduler.runNext()) {
      // a late task of the cancelled call must do nothing
    }
    assertThatThrownBy(() -> call.done().get(10, TimeUnit.SECONDS))
        .isInstanceOf(CancellationException.class);
    assertThat(server.getRequestCount()).isEqualTo(1);
    assertThat(polite.snapshots().get(0).inFlight()).isZero();
    assertThat(pool.getTotalStats().getLeased()).isZero();
  }

  @Test
  void installedTheDocumentedWayHttpClientsOwnRetryDoesNotResendTheRefusal() throws Exception {
    server.enqueue(status(429, "Retry-After", "1"));
    server.enqueue(status(200));
    client(polite().maxRateLimitRetries(0).build());

    SimpleHttpResponse response = runUntilDone(execute(SimpleRequestBuilder.get(url("/a")).build()));

    assertThat(response.getCode()).isEqualTo(429);
    assertThat(server.getRequestCount()).isEqualTo(1);
  }

  @Test
  void theResponseTimeoutBoundsTheWaits() throws Exception {
    server.enqueue(status(429, "Retry-After", "30"));
    client(polite().build());
    SimpleHttpRequest get = SimpleRequestBuilder.get(url("/a")).build();
    get.setConfig(RequestConfig.custom().setConnectionRequestTimeout(Hc5Harness.LEASE_TIMEOUT)
        .setResponseTimeout(Timeout.ofSeconds(5)).build());

    assertThat(runUntilDone(execute(get)).getCode()).isEqualTo(429);
    assertThat(clock.elapsed()).isZero();
  }


  @Test
  void aKeyFunctionThatThrowsFailsTheCallAsAnIOExceptionWithoutSending() {
    client(polite().key(request -> {
      throw new IllegalStateException("no tenant");
    }).build());

    Call call = execute(SimpleRequestBuilder.get(url("/a")).build());

    assertThatThrownBy(() -> call.done().get(10, TimeUnit.SECONDS))
        .isInstanceOf(ExecutionException.class).cause().isInstanceOf(IOException.class)
        .hasMessageContaining("the key function threw");
    assertThat(server.getRequestCount()).isZero();
  }
}
