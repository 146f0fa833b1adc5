package dev.polite.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.polite.Polite;
import dev.polite.micrometer.PoliteMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import mockwebserver3.MockWebServer;
import mockwebserver3.junit5.StartStop;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.client.RestClient;

/**
 * polite's meters appear in the application's registry with no code: a registry bean of the
 * application's own, or the one Boot's metrics make (which bind every binder themselves: the
 * meters are bound there once, and count each attempt once).
 */
@Timeout(60)
class PoliteMetersTest {
  @StartStop
  final MockWebServer server = new MockWebServer();

  @Test
  void anApplicationsRegistryGetsTheMeters() {
    Contexts.app().withBean(SimpleMeterRegistry.class).run(context -> {
      callThroughARefusal(context);

      assertMetersOfOneRefusalAndTwoAttempts(context);
    });
  }

  @Test
  void bootsMetricsGetTheMetersOnce() {
    Contexts.app()
        .withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class,
            CompositeMeterRegistryAutoConfiguration.class, SimpleMetricsExportAutoConfiguration.class))
        .run(context -> {
          assertThat(context).hasSingleBean(MeterRegistry.class);
          callThroughARefusal(context);

          assertMetersOfOneRefusalAndTwoAttempts(context);
        });
  }

  @Test
  void noRegistryNoMeters() {
    Contexts.app().run(context -> {
      assertThat(context).hasNotFailed();
      assertThat(context).doesNotHaveBean(PoliteMetrics.class);
    });
  }

  @Test
  void theKeyTagBoundIsAProperty() {
    Contexts.app().withBean(SimpleMeterRegistry.class).withPropertyValues("polite.metrics.max-key-tags=0")
        .run(context -> {
          callThroughARefusal(context);

          MeterRegistry registry = context.getBean(MeterRegistry.class);
          assertThat(registry.find("polite.calls.wait").tag("key", PoliteMetrics.OTHER).timer()).isNotNull();
          assertThat(registry.find("polite.calls.wait").tag("key", key(context)).timer()).isNull();
        });
  }

  @Test
  void anApplicationsOwnPoliteKeepsTheMetersByTakingThemAsAListener() {
    Contexts.app().withBean(SimpleMeterRegistry.class).withUserConfiguration(OwnPolite.class).run(context -> {
      callThroughARefusal(context);

      assertMetersOfOneRefusalAndTwoAttempts(context);
    });
  }

  @Configuration(proxyBeanMethods = false)
  static class OwnPolite {
    @Bean
    Polite polite(PoliteMetrics metrics) {
      return Polite.builder().backoff(Duration.ofMillis(1), Duration.ofMillis(1)).addListener(metrics).build();
    }
  }

  private void callThroughARefusal(AssertableApplicationContext context) {
    server.enqueue(Contexts.refusal());
    server.enqueue(Contexts.ok());
    RestClient client = context.getBean(RestClient.Builder.class).baseUrl(server.url("/").toString()).build();
    assertThat(client.get().retrieve().body(String.class)).isEqualTo("hello");
  }

  private static String key(AssertableApplicationContext context) {
    return context.getBean(Polite.class).snapshots().get(0).key();
  }

  private static void assertMetersOfOneRefusalAndTwoAttempts(AssertableApplicationContext context) {
    MeterRegistry registry = context.getBean(MeterRegistry.class);
    String key = key(context);
    Timer waits = registry.find("polite.calls.wait").tag("key", key).timer();
    assertThat(waits).isNotNull();
    assertThat(waits.count()).isEqualTo(2);
    assertThat(registry.get("polite.calls.rejected").tag("key", key).counter().count()).isEqualTo(1);
    assertThat(registry.get("polite.calls.retries").tag("key", key).counter().count()).isEqualTo(1);
    assertThat(registry.find("polite.key.in.flight").tag("key", key).gauge()).isNotNull();
  }
}
