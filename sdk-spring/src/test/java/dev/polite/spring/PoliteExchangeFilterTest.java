package dev.polite.spring;

import static dev.polite.testing.Answers.status;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.polite.RateLimitedException;
import dev.polite.testing.FakeClock;
import dev.polite.testing.ManualScheduler;
import java.io.IOException;
import java.time.Duration;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.http.client.reactive.ReactorClientHttpConnector;
import org.springframework.web.reactive.function.client.ClientRequest;
import org.springframework.web.reactive.function.client.WebClient;
import org.springframework.web.reactive.function.client.WebClientResponseException;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;
import reactor.netty.http.client.HttpClient;
import reactor.netty.resources.ConnectionProvider;

/**
 * {@code WebClient} made polite by the filter: a call's waits are tasks on a scheduler the test
 * runs by hand on the fake clock, so a waiting call holds no thread; disposing of a call ends its
 * wait and gives its place back; a refusal polite retries has its body released, on a pool of one
 * connection too.
 */
@Timeout(60)
class PoliteExchangeFilterTest {
  private final MockWebServer server = new MockWebServer();
  private final FakeClock clock = new FakeClock();
  private final ManualScheduler scheduler = new ManualScheduler(clock);
  private final ConnectionProvider oneConnection = ConnectionProvider.builder("one").maxConnections(1)
      .pendingAcquireTimeout(Duration.ofSeconds(5)).build(); // a leaked connection fails the next call

  PoliteExchangeFilterTest() throws IOException {
    server.start();
  }

  @AfterEach
  void close() {
    oneConnection.dispose();
    server.close();
  }

  private PoliteExchangeFilter.Builder polite() {
    return PoliteExchangeFilter.builder().clock(clock, clock).wallClock(clock).random(new Random(42))
        .scheduler(scheduler);
  }

  private WebClient.Builder webClient() {
    return WebClient.builder().baseUrl(server.url("/").toString())
        .clientConnector(new ReactorClientHttpConnector(HttpClient.create(oneConnection)));
  }

  /** Runs the scheduler's tasks as the call needs them until {@code call} completes; its value. */
  private <T> T runUntilDone(CompletableFuture<T> call) throws Exception {
    return scheduler.runUntilDone(call);
  }

  @Test
  void aRefusalIsRetriedAsATaskAfterItsRetryAfterOnAPoolOfOneConnection() throws Exception {
    for (int i = 0; i < 3; i++) {
      server.enqueue(status(429, "Retry-After", "1"));
    }
    server.enqueue(status(200));
    WebClient client = webClient().filter(polite().build()).build();

    String body = runUntilDone(client.get().uri("/a").retrieve().bodyToMono(String.class).toFuture());

    assertThat(body).isEqualTo("hello");
    assertThat(server.getRequestCount()).as("each refusal's connection went back to the pool of one").isEqualTo(4);
    assertThat(clock.elapsed()).as("never sooner than asked").isGreaterThanOrEqualTo(Duration.ofSeconds(3));
  }

  @Test
  void aDisposedCallEndsItsWaitAtOnceAndSendsNothingMore() throws Exception {
    server.enqueue(status(429, "Retry-After", "30"));
    server.enqueue(status(200));
    PoliteExchangeFilter filter = polite().build();
    WebClient client = webClient().filter(filter).build();

    Disposable call = client.get().uri("/a").retrieve().bodyToMono(String.class).subscribe();
    runUntilRefused();
    scheduler.awaitTask();
    call.dispose();

    assertThat(scheduler.pending()).as("the disposed call's task went with it").isZero();
    assertThat(server.getRequestCount()).isEqualTo(1);
    assertThat(filter.snapshots()).singleElement().satisfies(key -> assertThat(key.inFlight()).isZero());
  }

  /** Runs tasks until the server has answered the first attempt. */
  private void runUntilRefused() throws Exception {
    while (server.getRequestCount() == 0) {
      CompletableFuture<Void> added = scheduler.nextAdded();
      if (!scheduler.runNext() && server.getRequestCount() == 0) {
        assertThat(server.takeRequest(10, TimeUnit.SECONDS)).as("the first attempt").isNotNull();
        return;
      }
    }
  }

  @Test
  void aRefusalGivenUpReachesRetrieveAsTooManyRequestsWithTheServersBody() throws Exception {
    server.enqueue(status(429, "Retry-After", "30"));
    WebClient client = webClient().filter(polite().maxWait(Duration.ofSeconds(10)).build()).build();

    CompletableFuture<String> call = client.get().uri("/a").retrieve().bodyToMono(String.class).toFuture();

    assertThatThrownBy(() -> runUntilDone(call)).isInstanceOf(ExecutionException.class).cause()
        .isInstanceOf(WebClientResponseException.TooManyRequests.class)
        .satisfies(e -> assertThat(((WebClientResponseException) e).getResponseBodyAsString()).isEqualTo("refused"));
    assertThat(server.getRequestCount()).isEqualTo(1);
    assertThat(clock.elapsed()).isZero();
  }

  @Test
  void aRefusalThrownWhenAskedIsRateLimitedException() throws Exception {
    server.enqueue(status(429, "Retry-After", "30"));
    WebClient client = webClient().filter(polite().maxRateLimitRetries(0).throwWhenRateLimited(true).build())
        .build();

    CompletableFuture<String> call = client.get().uri("/a").retrieve().bodyToMono(String.class).toFuture();

    assertThatThrownBy(() -> runUntilDone(call)).isInstanceOf(ExecutionException.class).cause()
        .isInstanceOf(RateLimitedException.class);
  }

  @Test
  void eachAttemptRunsTheFiltersAfterPoliteInTheSubscribersContext() throws Exception {
    server.enqueue(status(429, "Retry-After", "1"));
    server.enqueue(status(200));
    AtomicReference<String> seen = new AtomicReference<>();
    WebClient client = webClient().filter(polite().build())
        .filter((request, next) -> Mono.deferContextual(context -> {
          String trace = context.getOrDefault("trace", "none");
          seen.set(trace);
          return next.exchange(ClientRequest.from(request).header("X-Trace", trace).build());
        }))
        .build();

    runUntilDone(client.get().uri("/a").retrieve().bodyToMono(String.class)
        .contextWrite(context -> context.put("trace", "t-1")).toFuture());

    assertThat(seen).hasValue("t-1");
    assertThat(server.takeRequest().getHeaders().get("X-Trace")).isEqualTo("t-1");
    assertThat(server.takeRequest().getHeaders().get("X-Trace")).as("the retry too").isEqualTo("t-1");
  }

  @Test
  void aPostsBodyIsWrittenAgainForTheRetry() throws Exception {
    server.enqueue(status(429, "Retry-After", "1"));
    server.enqueue(status(200));
    WebClient client = webClient().filter(polite().build()).build();

    runUntilDone(client.post().uri("/orders").bodyValue("{\"n\":1}").retrieve().toBodilessEntity().toFuture());

    assertThat(server.takeRequest().getBody().utf8()).isEqualTo("{\"n\":1}");
    assertThat(server.takeRequest().getBody().utf8()).isEqualTo("{\"n\":1}");
  }
}
