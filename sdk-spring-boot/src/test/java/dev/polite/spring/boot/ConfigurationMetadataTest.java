package dev.polite.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.InputStream;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The metadata IDEs complete {@code polite.*} from, as the jar carries it: written by Boot's
 * configuration processor from {@link PoliteProperties} (names, types, defaults, the fields'
 * comments), with the value hints of {@code additional-spring-configuration-metadata.json}.
 */
class ConfigurationMetadataTest {
  @Test
  void everyPropertyHasItsDefaultAndADescription() throws Exception {
    JsonNode metadata;
    try (InputStream in = getClass().getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
      assertThat(in).as("the configuration processor's output").isNotNull();
      metadata = new ObjectMapper().readTree(in);
    }
    Map<String, JsonNode> properties = new HashMap<>();
    metadata.get("properties").forEach(p -> properties.put(p.get("name").asText(), p));

    assertThat(properties).containsKeys("polite.enabled", "polite.max-wait", "polite.key", "polite.starting-rate",
        "polite.starting-burst", "polite.cautious-start", "polite.max-attempts", "polite.max-rate-limit-retries",
        "polite.backoff.base", "polite.backoff.cap", "polite.retry-budget.max-tokens",
        "polite.retry-budget.token-ratio", "polite.throw-when-rate-limited", "polite.observe-only",
        "polite.max-keys", "polite.read-retry-hints-from-body", "polite.metrics.max-key-tags");
    properties.forEach((name, property) -> {
      if (name.startsWith("polite.")) {
        assertThat(property.path("description").asText()).as(name).isNotBlank();
      }
    });
    assertThat(properties.get("polite.max-wait").get("defaultValue").asText()).isEqualTo("60s");
    assertThat(properties.get("polite.key").get("defaultValue").asText()).isEqualTo("host");
    assertThat(properties.get("polite.max-attempts").get("defaultValue").asInt()).isEqualTo(4);

    JsonNode keyHint = null;
    for (JsonNode hint : metadata.get("hints")) {
      if (hint.get("name").asText().equals("polite.key")) {
        keyHint = hint;
      }
    }
    assertThat(keyHint).isNotNull();
    assertThat(keyHint.get("values").findValuesAsText("value")).containsExactly("host", "route", "header:X-Api-Key");
  }
}
