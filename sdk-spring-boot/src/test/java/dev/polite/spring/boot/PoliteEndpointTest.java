package dev.polite.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.polite.KeySnapshot;
import dev.polite.Polite;
import dev.polite.RateLimitPolicy;
import java.time.Duration;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.junit5.StartStop;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.web.client.RestClient;

/** The {@code polite} endpoint: there when exposed, listing the keys polite holds. */
@Timeout(60)
class PoliteEndpointTest {
  @StartStop
  final MockWebServer server = new MockWebServer();

  private final ApplicationContextRunner exposed = Contexts.app()
      .withPropertyValues("management.endpoints.web.exposure.include=polite");

  @Test
  void theEndpointListsTheKeyACallMade() {
    server.enqueue(new MockResponse.Builder().code(200)
        .addHeader("RateLimit-Policy", "\"default\";q=100;w=60")
        .addHeader("RateLimit", "\"default\";r=99;t=30")
        .body("hello").build());
    exposed.run(context -> {
      PoliteEndpoint endpoint = context.getBean(PoliteEndpoint.class);
      assertThat(endpoint.keys().keys()).isEmpty();

      context.getBean(RestClient.Builder.class).baseUrl(server.url("/").toString()).build()
          .get().retrieve().body(String.class);

      String key = "http://" + server.getHostName() + ":" + server.getPort();
      assertThat(endpoint.keys().keys()).singleElement().satisfies(state -> {
        assertThat(state.key()).isEqualTo(key);
        assertThat(state.source()).isEqualTo("ADVERTISED");
        assertThat(state.pace()).isNotNull();
        assertThat(state.paused()).isFalse();
        assertThat(state.pausedFor()).isEqualTo("PT0S");
        assertThat(state.policy()).isNotNull();
        assertThat(state.policy().quota()).isEqualTo(100L);
        assertThat(state.policy().window()).isEqualTo("PT1M");
      });
      assertThat(endpoint.key(key.split("/"))).isNotNull()
          .extracting(PoliteEndpoint.KeyState::key).isEqualTo(key);
      // a server or firewall that merged the // after the scheme
      assertThat(endpoint.key(key.replace("//", "/").split("/"))).isNotNull();
      assertThat(endpoint.key(new String[] {"http:", "", "elsewhere:80"})).isNull();
    });
  }

  @Test
  void anUnpacedKeyIsPlainJson() throws Exception {
    KeySnapshot unpaced = new KeySnapshot("https://api.example.com:443", Double.POSITIVE_INFINITY, 1,
        Double.POSITIVE_INFINITY, Duration.ofMillis(1500), RateLimitPolicy.builder("").quota(10).build(),
        KeySnapshot.Source.UNPACED, 2, false);

    JsonNode json = new ObjectMapper().valueToTree(PoliteEndpoint.KeyState.of(unpaced));

    assertThat(json.get("pace").isNull()).isTrue();
    assertThat(json.get("tokens").isNull()).isTrue();
    assertThat(json.get("paused").asBoolean()).isTrue();
    assertThat(json.get("pausedFor").asText()).isEqualTo("PT1.5S");
    assertThat(json.get("inFlight").asInt()).isEqualTo(2);
    assertThat(json.get("policy").get("quota").asLong()).isEqualTo(10);
    assertThat(json.get("policy").get("remaining").isNull()).isTrue();
  }

  @Test
  void notExposedNoEndpoint() {
    Contexts.app().run(context -> {
      assertThat(context).hasSingleBean(Polite.class);
      assertThat(context).doesNotHaveBean(PoliteEndpoint.class);
    });
  }

  @Test
  void noActuatorNoEndpoint() {
    exposed.withClassLoader(new FilteredClassLoader(Endpoint.class.getPackageName(),
        "org.springframework.boot.actuate.autoconfigure")).run(context -> {
          assertThat(context).hasNotFailed();
          assertThat(context).doesNotHaveBean(PoliteEndpoint.class);
        });
  }

  @Test
  void theEndpointReadsAnApplicationsOwnPolite() {
    Polite own = Polite.create();
    exposed.withBean(Polite.class, () -> own).run(context ->
        assertThat(context.getBean(PoliteEndpoint.class)).extracting("polite").isSameAs(own));
  }
}
