package dev.polite.vendors.anthropic;

import static org.assertj.core.api.Assertions.assertThat;

import com.anthropic.client.AnthropicClient;
import com.anthropic.models.messages.Message;
import com.anthropic.models.messages.MessageCreateParams;
import com.anthropic.models.messages.Model;
import dev.polite.vendors.LoopbackServer;
import dev.polite.vendors.ScenarioTable;
import dev.polite.vendors.Workload;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * anthropic-java against the Anthropic stand-in: 40 Messages calls (a 1,000-token prompt,
 * {@code max_tokens} 2,000, 200 written) at 1 and 4 callers, each of {@link AnthropicClients}'
 * ways, on a fresh server each. Prints the table the README quotes:
 * {@code mvn -B -q test -pl vendor-sdks -am -Dtest=AnthropicScenarioTest
 * -Dsurefire.failIfNoSpecifiedTests=false}.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class AnthropicScenarioTest {
  @org.junit.jupiter.api.BeforeAll
  static void warmUp() throws Exception {
    AnthropicClients.warmUp();
  }

  /** The stand-in's budgets are full again 2 s after spent: its "minute". */
  static final Duration WINDOW = Duration.ofSeconds(2);
  static final String PROMPT = "Say hello. ".repeat(363) + "Now.";
  private static final int CALLS = 40;
  /**
   * The least time the budgets allow: 40 requests against 20 and 10 a second, and 40 × 1,200
   * tokens used against 24,000 and 12,000 a second: 2 s each.
   */
  private static final double FLOOR_SECONDS = 2.0;
  private static final ScenarioTable TABLE = new ScenarioTable(
      "anthropic-java 3.14.0, " + CALLS + " messages (1,000 + max 2,000 tokens, 200 written);"
          + " 20 requests and 24,000 tokens per 2 s, every 10th call 529");

  @AfterAll
  static void print() {
    System.out.println(TABLE.render());
  }

  static MessageCreateParams message() {
    return MessageCreateParams.builder().model(Model.CLAUDE_SONNET_4_5).maxTokens(2_000)
        .addUserMessage(PROMPT).build();
  }

  private static ScenarioTable.Row run(AnthropicClients way, int concurrency) throws Exception {
    AnthropicApi api = AnthropicApi.scaledDown();
    try (LoopbackServer server = new LoopbackServer(api)) {
      AnthropicClient client = way.connect(server.url());
      try {
        Workload.Outcome outcome = Workload.run(CALLS, concurrency, 60, i -> {
          Message m = client.messages().create(message());
          assertThat(m.usage().outputTokens()).isEqualTo(AnthropicApi.OUTPUT_TOKENS);
        });
        ScenarioTable.Row row = new ScenarioTable.Row(way.label, concurrency, CALLS, outcome,
            api.rateLimited(), server.requests(), FLOOR_SECONDS, api.overloaded() + " × 529");
        TABLE.add(row);
        return row;
      } finally {
        client.close();
      }
    }
  }

  @Test
  @Order(1)
  void theSdkAloneRetriesTwiceAfterRetryAfter() throws Exception {
    for (int concurrency : List.of(1, 4)) {
      ScenarioTable.Row row = run(AnthropicClients.ALONE, concurrency);
      assertThat(row.outcome().ok() + row.outcome().failed()).isEqualTo(CALLS);
    }
  }

  @Test
  @Order(2)
  void withPoliteAndTheSdkRetryingOverloadsNoCallFails() throws Exception {
    for (int concurrency : List.of(1, 4)) {
      ScenarioTable.Row row = run(AnthropicClients.POLITE, concurrency);
      assertThat(row.outcome().failures()).as("at " + concurrency).isEmpty();
      assertThat(row.rejections()).as("at " + concurrency).isLessThanOrEqualTo(6);
      assertThat(row.outcome().seconds()).isLessThan(30);
    }
  }

  @Test
  @Order(3)
  void turningEitherRetryLayerOffShowsWhatItDid() throws Exception {
    for (AnthropicClients way : List.of(AnthropicClients.POLITE_SDK_RETRIES_OFF,
        AnthropicClients.POLITE_PACES_ONLY)) {
      for (int concurrency : List.of(1, 4)) {
        ScenarioTable.Row row = run(way, concurrency);
        assertThat(row.outcome().ok() + row.outcome().failed()).isEqualTo(CALLS);
      }
    }
  }
}
