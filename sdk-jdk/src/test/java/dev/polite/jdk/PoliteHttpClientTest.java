package dev.polite.jdk;

import static dev.polite.testing.Answers.status;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.polite.CallContext;
import dev.polite.GiveUpReason;
import dev.polite.KeySnapshot;
import dev.polite.PoliteListener;
import dev.polite.RateLimitKey;
import dev.polite.RateLimitedException;
import dev.polite.RequestCost;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import mockwebserver3.MockResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The JDK client made polite, blocking: {@code send} waits on the fake clock, retries what polite
 * retries without ever handing a refusal to the caller's body handler, and keeps the JDK's own
 * conventions (its timeouts, its exceptions, its redirects).
 */
class PoliteHttpClientTest {
  private final JdkHarness h = new JdkHarness();

  PoliteHttpClientTest() throws IOException {}

  @AfterEach
  void close() throws IOException {
    h.close();
  }

  @Test
  void aRefusalIsRetriedAfterItsRetryAfterAndNeverReachesTheCallersHandler() throws Exception {
    h.server.enqueue(status(429, "Retry-After", "2"));
    h.server.enqueue(status(200));
    HttpClient client = h.polite().build();

    HttpResponse<String> response = h.send(client, h.get("/a"));

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.body()).as("the caller's own handler read it").isEqualTo("hello");
    assertThat(h.handled).as("the refusal was discarded unread").containsExactly(200);
    assertThat(h.server.getRequestCount()).isEqualTo(2);
    assertThat(h.clock.elapsed()).as("never sooner than asked").isGreaterThanOrEqualTo(Duration.ofSeconds(2));
  }

  @Test
  void aPaceTheServerAdvertisesSpacesTheCalls() throws Exception {
    for (int i = 0; i < 3; i++) {
      h.server.enqueue(status(200, "RateLimit-Policy", "\"default\";q=2;w=2",
          "RateLimit", "\"default\";r=0;t=2"));
    }
    PoliteHttpClient client = h.polite().build();

    for (int i = 0; i < 3; i++) {
      assertThat(h.send(client, h.get("/a")).statusCode()).isEqualTo(200);
    }
    KeySnapshot key = client.snapshot(RateLimitKey.host().keyOf(JdkRequestView.of(h.get("/"))))
        .orElseThrow();
    assertThat(key.pace()).as("2 per 2 s").isEqualTo(1.0);
    assertThat(h.clock.elapsed()).as("none left: each call waits for the next second")
        .isGreaterThanOrEqualTo(Duration.ofSeconds(2));
  }

  @Test
  void aBodyThatCannotBeSentTwiceIsNotResentAfterARefusal() throws Exception {
    h.server.enqueue(status(429, "Retry-After", "1"));
    HttpClient client = h.polite().build();
    HttpRequest stream = HttpRequest.newBuilder(h.uri("/upload"))
        .POST(BodyPublishers.ofInputStream(
            () -> new ByteArrayInputStream("once".getBytes(StandardCharsets.UTF_8))))
        .build();

    HttpResponse<String> response = h.send(client, stream);

    assertThat(response.statusCode()).as("handed back, not resent").isEqualTo(429);
    assertThat(response.body()).isEqualTo("refused");
    assertThat(h.server.getRequestCount()).isEqualTo(1);
  }

  @Test
  void aBodyFromAStringIsResentAfterARefusalWhateverTheMethod() throws Exception {
    h.server.enqueue(status(429, "Retry-After", "1"));
    h.server.enqueue(status(200));
    HttpClient client = h.polite().build();
    HttpRequest post = HttpRequest.newBuilder(h.uri("/orders"))
        .POST(BodyPublishers.ofString("{\"n\":1}")).build();

    assertThat(h.send(client, post).statusCode()).isEqualTo(200);
    assertThat(h.server.takeRequest().getBody().utf8()).isEqualTo("{\"n\":1}");
    assertThat(h.server.takeRequest().getBody().utf8()).as("the same body, again").isEqualTo("{\"n\":1}");
  }

  @Test
  void aWaitLongerThanTheRequestsTimeoutIsNotBegun() throws Exception {
    h.server.enqueue(status(429, "Retry-After", "30"));
    PoliteHttpClient client = h.polite().build();
    HttpRequest fiveSeconds = HttpRequest.newBuilder(h.uri("/a")).timeout(Duration.ofSeconds(5)).build();

    HttpResponse<String> refused = h.send(client, fiveSeconds);
    assertThat(refused.statusCode()).as("the retry's wait does not fit: the answer as it came")
        .isEqualTo(429);
    assertThatThrownBy(() -> h.send(client, fiveSeconds))
        .as("the key is paused past the timeout: refused at once, without sending")
        .isInstanceOf(RateLimitedException.class);
    assertThat(h.server.getRequestCount()).isEqualTo(1);
    assertThat(h.clock.elapsed()).as("nothing was slept").isZero();
  }

  @Test
  void aRefusalPoliteGivesUpOnIsThrownWhenAskedAndDiscarded() throws Exception {
    h.server.enqueue(status(429, "Retry-After", "30"));
    HttpClient client = h.polite().maxRateLimitRetries(0).throwWhenRateLimited(true).build();

    assertThatThrownBy(() -> h.send(client, h.get("/a")))
        .isInstanceOf(RateLimitedException.class)
        .satisfies(e -> assertThat(((RateLimitedException) e).requestedDelay())
            .isEqualTo(Duration.ofSeconds(30)));
    assertThat(h.handled).as("the refusal thrown is not read").isEmpty();
  }

  @Test
  void theJdksOwnTimeoutEndsAnAttemptThatTakesTooLong() throws Exception {
    h.server.enqueue(new MockResponse.Builder().code(200).headersDelay(2, TimeUnit.SECONDS).build());
    HttpClient client = h.polite().maxAttempts(1).build();
    HttpRequest quick = HttpRequest.newBuilder(h.uri("/slow")).timeout(Duration.ofMillis(200)).build();

    assertThatThrownBy(() -> h.send(client, quick)).isInstanceOf(HttpTimeoutException.class);
  }

  @Test
  void anInterruptedSendThrowsInterruptedExceptionAndSendsNothing() throws Exception {
    h.server.enqueue(status(429, "Retry-After", "10"));
    HttpClient client = h.polite().maxRateLimitRetries(0).build();
    assertThat(h.send(client, h.get("/a")).statusCode()).isEqualTo(429);
    h.clock.onSleep(() -> Thread.currentThread().interrupt()); // interrupted while it waits

    assertThatThrownBy(() -> h.send(client, h.get("/b"))).isInstanceOf(InterruptedException.class);
    assertThat(Thread.interrupted()).as("the interrupt is taken, as the JDK's send takes it").isFalse();
    assertThat(h.server.getRequestCount()).isEqualTo(1);
  }

  @Test
  void redirectsAreTheWrappedClientsAndPoliteSeesOneCall() throws Exception {
    h.server.enqueue(status(302, "Location", "/b"));
    h.server.enqueue(status(200));
    List<String> sent = new CopyOnWriteArrayList<>();
    HttpClient client = h.polite().addListener(new PoliteListener() {
      @Override
      public void sending(CallContext call, Duration waited) {
        sent.add(call.request().encodedPath());
      }
    }).build();

    HttpResponse<String> response = h.send(client, h.get("/a"));

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.uri().getPath()).isEqualTo("/b");
    assertThat(sent).as("one call, its redirect inside it").containsExactly("/a");
    assertThat(h.server.getRequestCount()).isEqualTo(2);
  }

  @Test
  void aHintedRequestCostsWhatItsHintSays() throws Exception {
    h.server.enqueue(status(200));
    List<Double> costs = new CopyOnWriteArrayList<>();
    HttpClient client = h.polite().addListener(new PoliteListener() {
      @Override
      public void sending(CallContext call, Duration waited) {
        costs.add(call.cost());
      }
    }).build();

    h.send(client, HintedRequest.of(h.get("/export"), RequestCost.of(5)));

    assertThat(costs).containsExactly(5.0);
  }

  @Test
  void aKeyFunctionThatThrowsFailsTheSendAsAnIOExceptionWithoutSending() {
    HttpClient client = h.polite().key(request -> {
      throw new IllegalStateException("no tenant");
    }).build();

    assertThatThrownBy(() -> h.send(client, h.get("/a")))
        .isInstanceOf(IOException.class).hasMessageContaining("the key function threw")
        .hasRootCauseMessage("no tenant");
    assertThat(h.server.getRequestCount()).isZero();
  }

  @Test
  void observationSendsAtOnceAndHandsTheRefusalBackTellingWhatItWouldHaveDone() throws Exception {
    h.server.enqueue(status(429, "Retry-After", "3"));
    List<String> would = new CopyOnWriteArrayList<>();
    HttpClient client = h.polite().observeOnly(true).addListener(new PoliteListener() {
      @Override
      public void wouldRetry(CallContext call, int attempt, Duration delay) {
        would.add("retry after " + delay.toSeconds() + " s");
      }

      @Override
      public void wouldGiveUp(CallContext call, GiveUpReason reason, Duration requestedDelay) {
        would.add("give up " + reason);
      }
    }).build();

    HttpResponse<String> response = h.send(client, h.get("/a"));

    assertThat(response.statusCode()).isEqualTo(429);
    assertThat(response.body()).isEqualTo("refused");
    assertThat(would).singleElement().asString().startsWith("retry after 3");
    assertThat(h.server.getRequestCount()).isEqualTo(1);
  }

  @Test
  void theWrapperIsTheWrappedClientInEverythingButItsCalls() {
    PoliteHttpClient client = h.polite().build();

    assertThat(client.version()).isEqualTo(HttpClient.Version.HTTP_1_1);
    assertThat(client.followRedirects()).isEqualTo(HttpClient.Redirect.NORMAL);
    assertThat(client.connectTimeout()).contains(Duration.ofSeconds(5));
    assertThat(client.client()).isSameAs(h.jdk);
  }
}
