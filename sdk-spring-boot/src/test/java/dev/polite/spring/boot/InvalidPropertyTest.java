package dev.polite.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.NestedExceptionUtils;

/**
 * A misconfigured property fails the start, and the failure names it: a value Boot cannot convert
 * fails in Boot's binding; a value the builder refuses becomes Boot's
 * {@link InvalidConfigurationPropertyValueException}, which its failure analyzer prints.
 */
class InvalidPropertyTest {
  private final ApplicationContextRunner starter = new ApplicationContextRunner()
      .withConfiguration(AutoConfigurations.of(PoliteAutoConfiguration.class));

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "polite.max-wait=-1s                | polite.max-wait                | maxWait must not be negative",
      "polite.key=nonsense                | polite.key                     | key must be host, route or header:NAME",
      "polite.key=header:                 | polite.key                     | key must be host, route or header:NAME",
      "polite.starting-rate=-5            | polite.starting-rate           | startingRate must be positive",
      "polite.starting-burst=0.5          | polite.starting-burst          | startingBurst must be at least 1",
      "polite.starting-burst=5            | polite.starting-burst          | needs polite.starting-rate",
      "polite.max-attempts=0              | polite.max-attempts            | maxAttempts must be at least 1",
      "polite.max-rate-limit-retries=-1   | polite.max-rate-limit-retries  | must not be negative",
      "polite.backoff.base=0s             | polite.backoff.base            | backoff base must be positive",
      "polite.backoff.cap=1ms             | polite.backoff.cap             | backoff cap must be at least the base",
      "polite.retry-budget.max-tokens=0   | polite.retry-budget.max-tokens | maxTokens must be in (0, 1000]",
      "polite.retry-budget.token-ratio=0  | polite.retry-budget.token-ratio| tokenRatio must be positive",
      "polite.max-keys=0                  | polite.max-keys                | maxKeys must be at least 1",
  })
  void aValueTheBuilderRefusesFailsTheStartNamingTheProperty(String setting, String property, String reason) {
    starter.withPropertyValues(setting).run(context -> {
      assertThat(context).hasFailed();
      Throwable root = NestedExceptionUtils.getRootCause(context.getStartupFailure());
      assertThat(root).isInstanceOf(InvalidConfigurationPropertyValueException.class)
          .hasMessageContaining(property).hasMessageContaining(reason);
      assertThat(((InvalidConfigurationPropertyValueException) root).getName()).isEqualTo(property);
    });
  }

  @Test
  void theMetersKeyTagBoundIsCheckedToo() {
    starter.withBean(SimpleMeterRegistry.class).withPropertyValues("polite.metrics.max-key-tags=-1").run(context -> {
      Throwable root = NestedExceptionUtils.getRootCause(context.getStartupFailure());
      assertThat(root).isInstanceOf(InvalidConfigurationPropertyValueException.class);
      assertThat(((InvalidConfigurationPropertyValueException) root).getName())
          .isEqualTo("polite.metrics.max-key-tags");
    });
  }

  @Test
  void aValueBootCannotConvertFailsInBindingNamingTheProperty() {
    starter.withPropertyValues("polite.max-wait=soon").run(context -> {
      assertThat(context).hasFailed();
      assertThat(context.getStartupFailure()).hasStackTraceContaining("polite.max-wait");
    });
  }

  @Test
  void validValuesStart() {
    starter.withPropertyValues("polite.starting-rate=2", "polite.starting-burst=5", "polite.key= Header:X-Api-Key ")
        .run(context -> assertThat(context).hasNotFailed());
  }

  /** What an application's user sees: Boot's failure analysis, printed, naming the property. */
  @Test
  @ExtendWith(OutputCaptureExtension.class)
  void theStartUpReportNamesTheProperty(CapturedOutput output) {
    SpringApplication application = new SpringApplication(Application.class);
    application.setWebApplicationType(WebApplicationType.NONE);
    application.setDefaultProperties(java.util.Map.of("polite.max-wait", "-1s", "spring.main.banner-mode", "off"));

    assertThatThrownBy(application::run).isNotNull();

    assertThat(output).contains("APPLICATION FAILED TO START")
        .contains("polite.max-wait")
        .contains("maxWait must not be negative");
  }

  @Configuration(proxyBeanMethods = false)
  @ImportAutoConfiguration(PoliteAutoConfiguration.class)
  static class Application {}
}
