package dev.polite.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.polite.Polite;
import dev.polite.PoliteConfig;
import dev.polite.PoliteListener;
import dev.polite.RateLimitKey;
import dev.polite.micrometer.PoliteMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.springframework.boot.restclient.RestClientCustomizer;
import org.springframework.boot.restclient.RestTemplateCustomizer;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.webclient.WebClientCustomizer;
import org.springframework.web.reactive.function.client.WebClient;

/** Which beans the starter makes, from which properties, and when it steps aside. */
class PoliteAutoConfigurationTest {
  private final ApplicationContextRunner app = Contexts.app();

  @Test
  void theStarterMakesOnePoliteAndACustomizerPerClient() {
    app.run(context -> {
      assertThat(context).hasNotFailed();
      assertThat(context).hasSingleBean(Polite.class);
      assertThat(context).hasSingleBean(PoliteProperties.class);
      assertThat(context.getBeansOfType(RestClientCustomizer.class)).containsOnlyKeys("politeRestClientCustomizer");
      assertThat(context.getBeansOfType(RestTemplateCustomizer.class)).containsOnlyKeys("politeRestTemplateCustomizer");
      assertThat(context.getBeansOfType(WebClientCustomizer.class)).containsKey("politeWebClientCustomizer");
    });
  }

  @Test
  void disabledItMakesNothing() {
    app.withPropertyValues("polite.enabled=false").withBean(SimpleMeterRegistry.class)
        .withPropertyValues("management.endpoints.web.exposure.include=polite")
        .run(context -> {
          assertThat(context).hasNotFailed();
          assertThat(context).doesNotHaveBean(Polite.class);
          assertThat(context).doesNotHaveBean(PoliteProperties.class);
          assertThat(context).doesNotHaveBean(RestClientCustomizer.class);
          assertThat(context).doesNotHaveBean(RestTemplateCustomizer.class);
          assertThat(context).doesNotHaveBean("politeWebClientCustomizer");
          assertThat(context).doesNotHaveBean(PoliteMetrics.class);
          assertThat(context).doesNotHaveBean(PoliteEndpoint.class);
        });
  }

  @Test
  void anApplicationsOwnPoliteIsTheOneTheClientsCarry() {
    Polite own = Polite.builder().maxWait(Duration.ofSeconds(3)).build();
    app.withBean(Polite.class, () -> own).withPropertyValues("polite.max-wait=7s").run(context -> {
      assertThat(context).hasSingleBean(Polite.class);
      assertThat(context.getBean(Polite.class)).isSameAs(own);
      assertThat(context.getBean(Polite.class).config().maxWait()).isEqualTo(Duration.ofSeconds(3));
    });
  }

  @Test
  void propertiesReachTheConfig() {
    app.withPropertyValues(
        "polite.max-wait=7s",
        "polite.key=header:X-Api-Key",
        "polite.starting-rate=5",
        "polite.starting-burst=3",
        "polite.cautious-start=false",
        "polite.max-attempts=2",
        "polite.max-rate-limit-retries=3",
        "polite.backoff.base=200ms",
        "polite.backoff.cap=5s",
        "polite.retry-budget.max-tokens=20",
        "polite.retry-budget.token-ratio=0.5",
        "polite.throw-when-rate-limited=true",
        "polite.observe-only=true",
        "polite.max-keys=50",
        "polite.read-retry-hints-from-body=true").run(context -> {
          PoliteConfig config = context.getBean(Polite.class).config();
          assertThat(config.maxWait()).isEqualTo(Duration.ofSeconds(7));
          assertThat(config.startingRate()).isEqualTo(5);
          assertThat(config.startingBurst()).isEqualTo(3);
          assertThat(config.cautiousStart()).isFalse();
          assertThat(config.maxAttempts()).isEqualTo(2);
          assertThat(config.maxRateLimitRetries()).isEqualTo(3);
          assertThat(config.backoffBase()).isEqualTo(Duration.ofMillis(200));
          assertThat(config.backoffCap()).isEqualTo(Duration.ofSeconds(5));
          assertThat(config.retryBudgetTokens()).isEqualTo(20);
          assertThat(config.retryBudgetRatio()).isEqualTo(0.5);
          assertThat(config.throwWhenRateLimited()).isTrue();
          assertThat(config.observeOnly()).isTrue();
          assertThat(config.maxKeys()).isEqualTo(50);
          assertThat(config.readRetryHintsFromBody()).isTrue();
          assertThat(Keys.of(config.key(), "X-Api-Key", "secret"))
              .startsWith("https://api.example.com:443 x-api-key#")
              .doesNotContain("secret");
        });
  }

  @Test
  void keyNamesEachBuiltInKeyFunction() {
    Function<String, String> keyOf = name -> Keys.of(PoliteProperties.keyOf(name), "X-Tenant", "acme");
    assertThat(keyOf.apply("host")).isEqualTo("https://api.example.com:443");
    assertThat(keyOf.apply("ROUTE")).isEqualTo("https://api.example.com:443/v1/things");
    assertThat(keyOf.apply("header:X-Tenant")).startsWith("https://api.example.com:443 x-tenant#");
  }

  /** Unset, every property is the builder's default: the two cannot drift apart. */
  @Test
  void unsetPropertiesAreTheBuildersDefaults() {
    PoliteProperties properties = new PoliteProperties();
    Polite.Builder builder = Polite.builder();
    properties.applyTo(builder);
    PoliteConfig starter = builder.build().config();
    PoliteConfig plain = Polite.create().config();

    assertThat(starter.toString()).isEqualTo(plain.toString());
    assertThat(starter.maxKeys()).isEqualTo(plain.maxKeys());
    assertThat(starter.throwWhenRateLimited()).isEqualTo(plain.throwWhenRateLimited());
    assertThat(starter.readRetryHintsFromBody()).isEqualTo(plain.readRetryHintsFromBody());
    assertThat(starter.startingRate()).isEqualTo(plain.startingRate());
    assertThat(starter.startingBurst()).isEqualTo(plain.startingBurst());
    assertThat(Keys.of(starter.key(), "X", "y"))
        .isEqualTo(Keys.of(plain.key(), "X", "y"));
    assertThat(properties.getMetrics().getMaxKeyTags()).isEqualTo(PoliteMetrics.DEFAULT_MAX_KEY_TAGS);
  }

  @Test
  void listenerAndCustomizerBeansReachThePolite() {
    PoliteListener listener = new PoliteListener() {};
    app.withBean(PoliteListener.class, () -> listener)
        .withBean(PoliteCustomizer.class, () -> builder -> builder.key(RateLimitKey.route()).maxAttempts(1))
        .withPropertyValues("polite.max-attempts=3")
        .run(context -> {
          PoliteConfig config = context.getBean(Polite.class).config();
          assertThat(config.listeners()).containsExactly(listener);
          assertThat(config.maxAttempts()).isEqualTo(1); // the customizer runs after the properties
          assertThat(Keys.of(config.key(), "X", "y"))
              .isEqualTo("https://api.example.com:443/v1/things");
        });
  }

  @Test
  void eachClientsPartNeedsItsClasses() {
    app.withClassLoader(new FilteredClassLoader(WebClient.class, MeterRegistry.class))
        .run(context -> {
          assertThat(context).hasNotFailed();
          assertThat(context).hasSingleBean(Polite.class);
          assertThat(context).hasBean("politeRestClientCustomizer");
          assertThat(context).doesNotHaveBean(WebClientCustomizer.class);
          assertThat(context).doesNotHaveBean(PoliteMetrics.class);
        });
  }
}
