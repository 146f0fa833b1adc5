package dev.polite.spring;

import static dev.polite.testing.Answers.status;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.polite.RateLimitedException;
import dev.polite.RequestCost;
import dev.polite.testing.FakeClock;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.core5.util.Timeout;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.http.client.ClientHttpRequestFactory;
import org.springframework.http.client.HttpComponentsClientHttpRequestFactory;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.http.client.ReactorClientHttpRequestFactory;
import org.springframework.http.client.SimpleClientHttpRequestFactory;
import org.springframework.web.client.HttpClientErrorException;
import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestTemplate;

/**
 * {@code RestClient} and {@code RestTemplate} made polite by the interceptor, on every request
 * factory Spring Framework 7 ships: polite waits on the fake clock, retries a refusal without
 * handing it to the caller, closes what it does not return, and keeps Spring's conventions (a
 * refusal given up becomes {@code TooManyRequests}, an I/O failure a
 * {@code ResourceAccessException}).
 */
class PoliteRequestInterceptorTest {
  private final MockWebServer server = new MockWebServer();
  private final FakeClock clock = new FakeClock();

  PoliteRequestInterceptorTest() throws IOException {
    server.start();
  }

  @AfterEach
  void close() {
    server.close();
  }

  /** The request factories under RestClient in Spring Framework 7, each with one connection at most. */
  enum Factory {
    JDK(() -> new JdkClientHttpRequestFactory(HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build())),
    HTTP_CLIENT_5(() -> new HttpComponentsClientHttpRequestFactory(HttpClients.custom()
        .setConnectionManager(PoolingHttpClientConnectionManagerBuilder.create()
            .setMaxConnTotal(1).setMaxConnPerRoute(1).build())
        // a leaked connection fails the next lease after 5 s instead of hanging the test
        .setDefaultRequestConfig(RequestConfig.custom().setConnectionRequestTimeout(Timeout.ofSeconds(5)).build())
        .disableAutomaticRetries()
        .build())),
    REACTOR_NETTY(ReactorClientHttpRequestFactory::new),
    SIMPLE(SimpleClientHttpRequestFactory::new);

    private final Supplier<ClientHttpRequestFactory> make;

    Factory(Supplier<ClientHttpRequestFactory> make) {
      this.make = make;
    }

    ClientHttpRequestFactory make() {
      return make.get();
    }
  }

  private PoliteRequestInterceptor.Builder polite() {
    return PoliteRequestInterceptor.builder().clock(clock, clock).wallClock(clock).random(new Random(42));
  }

  private RestClient restClient(Factory factory, PoliteRequestInterceptor interceptor) {
    return RestClient.builder().requestFactory(factory.make()).baseUrl(server.url("/").toString())
        .requestInterceptor(interceptor).build();
  }

  @ParameterizedTest
  @EnumSource(Factory.class)
  void aRefusalIsRetriedAfterItsRetryAfterAndTheCallerGetsTheAnswerThatFollows(Factory factory) {
    server.enqueue(status(429, "Retry-After", "2"));
    server.enqueue(status(429, "Retry-After", "1"));
    server.enqueue(status(200));
    RestClient client = restClient(factory, polite().build());

    String body = client.get().uri("/a").retrieve().body(String.class);

    assertThat(body).isEqualTo("hello");
    assertThat(server.getRequestCount()).isEqualTo(3);
    assertThat(clock.elapsed()).as("never sooner than asked").isGreaterThanOrEqualTo(Duration.ofSeconds(3));
  }

  @ParameterizedTest
  @EnumSource(Factory.class)
  void aRefusalGivenUpReachesTheStatusHandlerAsTooManyRequestsWithTheServersBody(Factory factory) {
    server.enqueue(status(429, "Retry-After", "30"));
    RestClient client = restClient(factory, polite().maxWait(Duration.ofSeconds(10)).build());

    assertThatThrownBy(() -> client.get().uri("/a").retrieve().body(String.class))
        .isInstanceOf(HttpClientErrorException.TooManyRequests.class)
        .satisfies(e -> {
          HttpClientErrorException refused = (HttpClientErrorException) e;
          assertThat(refused.getResponseBodyAsString()).isEqualTo("refused");
          assertThat(refused.getResponseHeaders().getFirst("Retry-After")).isEqualTo("30");
        });
    assertThat(server.getRequestCount()).isEqualTo(1);
    assertThat(clock.elapsed()).as("a wait past the max wait is not begun").isZero();
  }

  @ParameterizedTest
  @EnumSource(Factory.class)
  void aRefusalThrownWhenAskedIsSpringsIoErrorCausedByRateLimitedException(Factory factory) {
    server.enqueue(status(429, "Retry-After", "30"));
    RestClient client = restClient(factory, polite().maxRateLimitRetries(0).throwWhenRateLimited(true).build());

    assertThatThrownBy(() -> client.get().uri("/a").retrieve().body(String.class))
        .isInstanceOf(ResourceAccessException.class)
        .cause().isInstanceOf(RateLimitedException.class)
        .satisfies(e -> assertThat(((RateLimitedException) e).requestedDelay()).isEqualTo(Duration.ofSeconds(30)));
  }

  @Test
  void everyRefusalPoliteRetriesGivesItsConnectionBackOnAPoolOfOne() {
    for (int i = 0; i < 3; i++) {
      server.enqueue(status(429, "Retry-After", "1"));
    }
    server.enqueue(status(200));
    RestClient client = restClient(Factory.HTTP_CLIENT_5, polite().build());

    // HttpClient 5 with one connection and a lease timeout: a refusal not closed holds the only
    // connection, and the retry's lease fails
    assertThat(client.get().uri("/a").retrieve().body(String.class)).isEqualTo("hello");
    assertThat(server.getRequestCount()).isEqualTo(4);
  }

  @ParameterizedTest
  @EnumSource(Factory.class)
  void aPostsBodyIsSentAgainWholeAfterARefusal(Factory factory) throws InterruptedException {
    server.enqueue(status(429, "Retry-After", "1"));
    server.enqueue(status(200));
    RestClient client = restClient(factory, polite().build());

    client.post().uri("/orders").body("{\"n\":1}").retrieve().toBodilessEntity();

    assertThat(server.takeRequest().getBody().utf8()).isEqualTo("{\"n\":1}");
    assertThat(server.takeRequest().getBody().utf8()).as("the same body, again").isEqualTo("{\"n\":1}");
  }

  @Test
  void interceptorsAfterPoliteRunAgainOnEveryAttempt() throws InterruptedException {
    server.enqueue(status(429, "Retry-After", "1"));
    server.enqueue(status(200));
    List<String> signed = new CopyOnWriteArrayList<>();
    RestClient client = RestClient.builder().requestFactory(Factory.JDK.make()).baseUrl(server.url("/").toString())
        .requestInterceptor(polite().build())
        .requestInterceptor((request, body, execution) -> {
          String signature = "attempt-" + (signed.size() + 1);
          signed.add(signature);
          request.getHeaders().set("X-Signature", signature);
          return execution.execute(request, body);
        })
        .build();

    client.get().uri("/a").retrieve().toBodilessEntity();

    assertThat(signed).containsExactly("attempt-1", "attempt-2");
    assertThat(server.takeRequest().getHeaders().get("X-Signature")).isEqualTo("attempt-1");
    assertThat(server.takeRequest().getHeaders().get("X-Signature")).isEqualTo("attempt-2");
  }

  @Test
  void aPaceTheServerAdvertisesSpacesTheCallsOfRestTemplateToo() {
    for (int i = 0; i < 3; i++) {
      server.enqueue(status(200, "RateLimit-Policy", "\"default\";q=2;w=2", "RateLimit", "\"default\";r=0;t=2"));
    }
    PoliteRequestInterceptor interceptor = polite().build();
    RestTemplate template = new RestTemplate(Factory.SIMPLE.make());
    template.getInterceptors().add(interceptor);

    for (int i = 0; i < 3; i++) {
      assertThat(template.getForObject(server.url("/a").toString(), String.class)).isEqualTo("hello");
    }
    assertThat(interceptor.snapshots()).singleElement().satisfies(key -> assertThat(key.pace()).isEqualTo(1.0));
    assertThat(clock.elapsed()).as("none left: each call waits for the next second")
        .isGreaterThanOrEqualTo(Duration.ofSeconds(2));
  }

  @Test
  void aRequestsHintsTravelInItsAttributesToTheKeyAndCostFunctions() {
    server.enqueue(status(200));
    List<Object> seen = new CopyOnWriteArrayList<>();
    PoliteRequestInterceptor interceptor = polite().key(request -> {
      seen.add(request.tag(RequestCost.class));
      Tenant tenant = request.tag(Tenant.class);
      return tenant == null ? "nobody" : tenant.name();
    }).build();
    RestClient client = restClient(Factory.JDK, interceptor);
    RequestCost five = RequestCost.of(5);

    client.get().uri("/a").attributes(RequestHints.of(five, new Tenant("acme"))).retrieve().toBodilessEntity();

    assertThat(seen).containsExactly(five);
    assertThat(interceptor.snapshot("acme")).as("the key the tenant hint named").isPresent();
  }

  @Test
  void anInterruptedWaitEndsAtOnceAsSpringsIoErrorWithTheInterruptKept() {
    server.enqueue(status(429, "Retry-After", "5"));
    RestClient client = restClient(Factory.JDK, polite().build());
    clock.onSleep(() -> Thread.currentThread().interrupt());

    try {
      assertThatThrownBy(() -> client.get().uri("/a").retrieve().toBodilessEntity())
          .isInstanceOf(ResourceAccessException.class)
          .cause().isInstanceOf(InterruptedIOException.class);
      assertThat(Thread.currentThread().isInterrupted()).as("the interrupt is kept").isTrue();
    } finally {
      Thread.interrupted();
    }
    assertThat(server.getRequestCount()).as("nothing more was sent").isEqualTo(1);
  }

  @Test
  void aServerThatRefusesForADayIsGivenUpAtOnce() throws InterruptedException {
    server.enqueue(status(429, "Retry-After", "86400"));
    RestClient client = restClient(Factory.JDK, polite().build());

    assertThatThrownBy(() -> client.get().uri("/a").retrieve().toBodilessEntity())
        .isInstanceOf(HttpClientErrorException.TooManyRequests.class);
    assertThat(server.takeRequest(1, TimeUnit.SECONDS)).isNotNull();
    assertThat(clock.elapsed()).isZero();
  }

  private record Tenant(String name) {}
}
