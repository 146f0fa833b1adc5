package dev.polite.httpclient5;

import static dev.polite.httpclient5.Hc5Harness.execute;
import static dev.polite.httpclient5.Hc5Harness.status;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.polite.CallContext;
import dev.polite.PoliteListener;
import dev.polite.RateLimitedException;
import dev.polite.RequestCost;
import dev.polite.httpclient5.Hc5Harness.Answer;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import mockwebserver3.RecordedRequest;
import org.apache.hc.client5.http.classic.methods.HttpGet;
import org.apache.hc.client5.http.classic.methods.HttpPost;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.ChainElement;
import org.apache.hc.client5.http.impl.DefaultHttpRequestRetryStrategy;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.RequestFailedException;
import org.apache.hc.client5.http.protocol.HttpClientContext;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.io.entity.InputStreamEntity;
import org.apache.hc.core5.http.io.entity.StringEntity;
import org.apache.hc.core5.util.TimeValue;
import org.apache.hc.core5.util.Timeout;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * HttpClient 5's classic client made polite by its chain handler: it waits on the fake clock,
 * retries what polite retries and hands the caller only the answer polite keeps, lets go of every
 * other answer's connection (the harness's pool has one), and keeps HttpClient's conventions.
 */
@org.junit.jupiter.api.Timeout(60)
class PoliteExecChainHandlerTest {
  private final Hc5Harness h = new Hc5Harness();

  PoliteExecChainHandlerTest() throws IOException {}

  @AfterEach
  void close() throws IOException {
    h.close();
  }

  @Test
  void aRefusalIsRetriedAfterItsRetryAfterAndTheCallerGetsTheAnswerWithItsBody() throws Exception {
    h.server.enqueue(status(429, "Retry-After", "2"));
    h.server.enqueue(status(200));
    CloseableHttpClient client = h.client(h.polite().build());

    Answer answer = execute(client, new HttpGet(h.url("/a")));

    assertThat(answer).isEqualTo(new Answer(200, "hello"));
    assertThat(h.server.getRequestCount()).isEqualTo(2);
    assertThat(h.clock.elapsed()).as("never sooner than asked").isGreaterThanOrEqualTo(Duration.ofSeconds(2));
  }

  @Test
  void aRefusalsConnectionGoesBackToThePoolOfOneBeforeTheRetry() throws Exception {
    h.server.enqueue(status(429, "Retry-After", "1"));
    h.server.enqueue(status(200));
    h.server.enqueue(status(200));
    CloseableHttpClient client = h.client(h.polite().build());

    assertThat(execute(client, new HttpGet(h.url("/a"))).status()).isEqualTo(200);
    assertThat(execute(client, new HttpGet(h.url("/b"))).status()).as("the pool still serves").isEqualTo(200);

    RecordedRequest refused = h.server.takeRequest();
    RecordedRequest retried = h.server.takeRequest();
    assertThat(retried.getConnectionIndex()).as("the refusal's body was read to its end, so its "
        + "connection was kept alive and reused").isEqualTo(refused.getConnectionIndex());
    assertThat(h.leased()).isZero();
  }

  @Test
  void aSpentXRateLimitQuotaDelaysTheNextCallUntilItsReset() throws Exception {
    h.server.enqueue(status(200, "X-RateLimit-Limit", "10", "X-RateLimit-Remaining", "0",
        "X-RateLimit-Reset", "3"));
    h.server.enqueue(status(200));
    CloseableHttpClient client = h.client(h.polite().build());

    assertThat(execute(client, new HttpGet(h.url("/a"))).status()).isEqualTo(200);
    assertThat(h.clock.elapsed()).isZero();
    assertThat(execute(client, new HttpGet(h.url("/b"))).status()).isEqualTo(200);

    assertThat(h.clock.elapsed()).as("the next call waited for the reset")
        .isGreaterThanOrEqualTo(Duration.ofSeconds(3));
    assertThat(h.server.getRequestCount()).isEqualTo(2);
  }

  @Test
  void anEntityThatIsNotRepeatableIsSentOnceAndItsRefusalHandedBack() throws Exception {
    h.server.enqueue(status(429, "Retry-After", "1"));
    CloseableHttpClient client = h.client(h.polite().build());
    HttpPost upload = new HttpPost(h.url("/upload"));
    upload.setEntity(new InputStreamEntity(
        new ByteArrayInputStream("once".getBytes(StandardCharsets.UTF_8)), ContentType.TEXT_PLAIN));

    Answer answer = execute(client, upload);

    assertThat(answer).isEqualTo(new Answer(429, "refused"));
    assertThat(h.server.getRequestCount()).isEqualTo(1);
  }

  @Test
  void aRepeatableEntityIsResentWhole() throws Exception {
    h.server.enqueue(status(429, "Retry-After", "1"));
    h.server.enqueue(status(200));
    CloseableHttpClient client = h.client(h.polite().build());
    HttpPost post = new HttpPost(h.url("/orders"));
    post.setEntity(new StringEntity("{\"n\":1}", ContentType.APPLICATION_JSON));

    assertThat(execute(client, post).status()).isEqualTo(200);

    assertThat(h.server.takeRequest().getBody().utf8()).isEqualTo("{\"n\":1}");
    RecordedRequest again = h.server.takeRequest();
    assertThat(again.getBody().utf8()).as("the same body, again").isEqualTo("{\"n\":1}");
    assertThat(again.getHeaders().values("Content-Type")).as("headers not doubled by the chain below")
        .hasSize(1);
  }

  @Test
  void aWaitPastTheMaxWaitIsNotBegunAndTheRefusalIsReturnedAsItCame() throws Exception {
    h.server.enqueue(status(429, "Retry-After", "120"));
    CloseableHttpClient client = h.client(h.polite().maxWait(Duration.ofSeconds(10)).build());

    Answer answer = execute(client, new HttpGet(h.url("/a")));

    assertThat(answer).isEqualTo(new Answer(429, "refused"));
    assertThat(h.server.getRequestCount()).isEqualTo(1);
    assertThat(h.clock.elapsed()).as("nothing was slept").isZero();
  }

  @Test
  void aRefusalPoliteGivesUpOnIsThrownWhenAskedAndItsConnectionLetGo() throws Exception {
    h.server.enqueue(status(429, "Retry-After", "120"));
    CloseableHttpClient client = h.client(h.polite().maxWait(Duration.ofSeconds(10))
        .throwWhenRateLimited(true).build());

    assertThatThrownBy(() -> execute(client, new HttpGet(h.url("/a"))))
        .isInstanceOf(RateLimitedException.class)
        .satisfies(e -> assertThat(((RateLimitedException) e).requestedDelay())
            .isEqualTo(Duration.ofSeconds(120)));
    assertThat(h.leased()).isZero();
    assertThat(h.server.getRequestCount()).isEqualTo(1);
  }

  @Test
  void aRetryAfterOfADayGivesUpAtOnceRatherThanHang() throws Exception {
    h.server.enqueue(status(429, "Retry-After", "86400"));
    CloseableHttpClient client = h.client(h.polite().build());

    Answer answer = execute(client, new HttpGet(h.url("/a")));

    assertThat(answer.status()).isEqualTo(429);
    assertThat(h.server.getRequestCount()).as("neither polite nor HttpClient resent it").isEqualTo(1);
    assertThat(h.clock.elapsed()).isZero();
  }

  @Test
  void anInterruptEndsTheWaitWithInterruptedIOExceptionTheInterruptKept() throws Exception {
    h.server.enqueue(status(429, "Retry-After", "10"));
    CloseableHttpClient client = h.client(h.polite().build());
    h.clock.onSleep(() -> Thread.currentThread().interrupt()); // interrupted while it waits

    assertThatThrownBy(() -> execute(client, new HttpGet(h.url("/a"))))
        .isInstanceOf(InterruptedIOException.class);
    assertThat(Thread.interrupted()).as("the interrupt is kept, as HttpClient keeps it").isTrue();
    assertThat(h.server.getRequestCount()).as("nothing more was sent").isEqualTo(1);
    assertThat(h.leased()).isZero();
  }

  @Test
  void aRequestCancelledWhileItWaitsEndsWithHttpClientsAbortAndSendsNothingMore() throws Exception {
    h.server.enqueue(status(429, "Retry-After", "10"));
    CloseableHttpClient client = h.client(h.polite().build());
    HttpGet get = new HttpGet(h.url("/a"));
    h.clock.onSleep(get::cancel); // cancelled while it waits

    assertThatThrownBy(() -> execute(client, get)).isInstanceOf(RequestFailedException.class)
        .hasMessage("Request aborted");
    assertThat(h.server.getRequestCount()).isEqualTo(1);
    assertThat(h.leased()).isZero();
  }

  @Test
  void aCancelEndsARealWaitPromptly() throws Exception {
    h.server.enqueue(status(429, "Retry-After", "30"));
    CompletableFuture<Void> waiting = new CompletableFuture<>();
    CloseableHttpClient client = h.client(PoliteExecChainHandler.builder() // the system clock
        .addListener(new PoliteListener() {
          @Override
          public void retryScheduled(CallContext call, int attempt, Duration delay) {
            waiting.complete(null);
          }
        }).build());
    HttpGet get = new HttpGet(h.url("/a"));

    CompletableFuture<Answer> call = CompletableFuture.supplyAsync(() -> {
      try {
        return execute(client, get);
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    });
    waiting.get(10, TimeUnit.SECONDS); // the refusal came, and polite waits out its 30 s
    get.cancel();

    assertThatThrownBy(() -> call.get(10, TimeUnit.SECONDS)).as("within the bound, not 30 s")
        .isInstanceOf(ExecutionException.class).cause().cause()
        .isInstanceOf(RequestFailedException.class);
    assertThat(h.server.getRequestCount()).isEqualTo(1);
  }

  @Test
  void installedTheDocumentedWayHttpClientsOwnRetryDoesNotResendTheRefusal() throws Exception {
    h.server.enqueue(status(429, "Retry-After", "1"));
    h.server.enqueue(status(200));
    CloseableHttpClient client = h.client(h.polite().maxRateLimitRetries(0).build());

    assertThat(execute(client, new HttpGet(h.url("/a"))).status())
        .as("polite gave the refusal back, and nothing resent it").isEqualTo(429);
    assertThat(h.server.getRequestCount()).isEqualTo(1);
  }

  @Test
  void withHttpClientsRetryKeptARefusalIsSentTwiceWhichIsWhyInstallRemovesIt() throws Exception {
    h.server.enqueue(status(429, "Retry-After", "1"));
    h.server.enqueue(status(429, "Retry-After", "1"));
    PoliteExecChainHandler polite = h.polite().maxRateLimitRetries(0).build();
    CloseableHttpClient client = h.adopt(h.custom()
        .setRetryStrategy(new DefaultHttpRequestRetryStrategy(1, TimeValue.ZERO_MILLISECONDS))
        .addExecInterceptorBefore(ChainElement.PROTOCOL.name(), PoliteExecChainHandler.NAME, polite)
        .build());

    assertThat(execute(client, new HttpGet(h.url("/a"))).status()).isEqualTo(429);
    assertThat(h.server.getRequestCount()).as("HttpClient resent what polite gave back").isEqualTo(2);
  }

  @Test
  void placedBeforeARetryHandlerThatWasDisabledPoliteIsDroppedWithoutAWord() throws Exception {
    h.server.enqueue(status(429, "Retry-After", "1"));
    PoliteExecChainHandler polite = h.polite().build();
    CloseableHttpClient client = h.adopt(h.custom().disableAutomaticRetries()
        .addExecInterceptorBefore(ChainElement.RETRY.name(), PoliteExecChainHandler.NAME, polite)
        .build());

    assertThat(execute(client, new HttpGet(h.url("/a"))).status()).isEqualTo(429);
    assertThat(polite.snapshots()).as("polite never saw the call: why install anchors on PROTOCOL")
        .isEmpty();
  }

  @Test
  void eachHopOfARedirectIsACallOfItsOwn() throws Exception {
    h.server.enqueue(status(302, "Location", "/b"));
    h.server.enqueue(status(200));
    List<String> sent = new CopyOnWriteArrayList<>();
    CloseableHttpClient client = h.client(h.polite().addListener(new PoliteListener() {
      @Override
      public void sending(CallContext call, Duration waited) {
        sent.add(call.request().encodedPath());
      }
    }).build());

    assertThat(execute(client, new HttpGet(h.url("/a?x=1")))).isEqualTo(new Answer(200, "hello"));
    assertThat(sent).containsExactly("/a", "/b");
  }

  @Test
  void aCostHintInTheContextIsWhatTheCallCosts() throws Exception {
    h.server.enqueue(status(200));
    List<Double> costs = new CopyOnWriteArrayList<>();
    CloseableHttpClient client = h.client(h.polite().addListener(new PoliteListener() {
      @Override
      public void sending(CallContext call, Duration waited) {
        costs.add(call.cost());
      }
    }).build());

    execute(client, new HttpGet(h.url("/export")),
        RequestHints.attach(HttpClientContext.create(), RequestCost.of(5)));

    assertThat(costs).containsExactly(5.0);
  }

  @Test
  void theResponseTimeoutBoundsTheWaitsAsHttpClientsOwnRetryIsBounded() throws Exception {
    h.server.enqueue(status(429, "Retry-After", "30"));
    CloseableHttpClient client = h.client(h.polite().build());
    HttpGet get = new HttpGet(h.url("/a"));
    get.setConfig(RequestConfig.custom().setConnectionRequestTimeout(Hc5Harness.LEASE_TIMEOUT)
        .setResponseTimeout(Timeout.ofSeconds(5)).build());

    assertThat(execute(client, get).status()).as("the wait would not fit: the answer as it came")
        .isEqualTo(429);
    assertThat(h.clock.elapsed()).isZero();
  }

  @Test
  void aKeyFunctionThatThrowsFailsTheCallAsAnIOExceptionWithoutSending() {
    CloseableHttpClient client = h.client(h.polite().key(request -> {
      throw new IllegalStateException("no tenant");
    }).build());

    assertThatThrownBy(() -> execute(client, new HttpGet(h.url("/a"))))
        .isInstanceOf(IOException.class).hasMessageContaining("the key function threw");
    assertThat(h.server.getRequestCount()).isZero();
  }
}
