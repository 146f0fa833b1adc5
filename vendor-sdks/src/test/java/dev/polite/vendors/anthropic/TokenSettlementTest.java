package dev.polite.vendors.anthropic;

import static org.assertj.core.api.Assertions.assertThat;

import com.anthropic.client.AnthropicClient;
import com.anthropic.client.okhttp.AnthropicOkHttpClient;
import dev.polite.okhttp.PoliteInterceptor;
import dev.polite.testing.FakeClock;
import dev.polite.vendors.LoopbackServer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The token layer's reservations and settlements, on polite's fake clock (its waits are counted,
 * not slept), against the stand-in's 24,000 tokens per 2 s: each of 15 calls reserves its prompt
 * plus {@code max_tokens} (about 3,000) and uses 1,200. Settled from the answers' usage, the
 * unused 1,800 of each is the next call's at once and no call waits; left charged, the
 * reservations run past the budget and the calls wait for tokens nobody used.
 */
class TokenSettlementTest {
  private static final int CALLS = 15;

  @BeforeAll
  static void warmUp() throws Exception {
    AnthropicClients.warmUp();
  }

  /** The fake seconds the calls waited in polite, and the 429s the server sent meanwhile. */
  private static double waitedSeconds(boolean settles) throws Exception {
    FakeClock clock = new FakeClock();
    AnthropicApi api = AnthropicApi.neverOverloaded();
    try (LoopbackServer server = new LoopbackServer(api)) {
      AnthropicClient client = AnthropicOkHttpClient.builder().apiKey("sk-ant-stand-in")
          .baseUrl(server.url())
          .addInterceptor(PoliteAnthropicInterceptor.builder()
              .requests(PoliteInterceptor.builder().clock(clock, clock))
              .tokens(PoliteInterceptor.builder().clock(clock, clock), AnthropicScenarioTest.WINDOW)
              .settleFromUsage(settles)
              .build())
          .build();
      try {
        for (int i = 0; i < CALLS; i++) {
          assertThat(client.messages().create(AnthropicScenarioTest.message()).usage().outputTokens())
              .isEqualTo(AnthropicApi.OUTPUT_TOKENS);
        }
      } finally {
        client.close();
      }
      assertThat(api.rateLimited()).isZero();
      assertThat(server.requests()).isEqualTo(CALLS);
    }
    return clock.elapsedSeconds();
  }

  @Test
  void settledReservationsLeaveTheBudgetToTheNextCalls() throws Exception {
    double settled = waitedSeconds(true);
    double unsettled = waitedSeconds(false);
    System.out.printf(java.util.Locale.ROOT,
        "token layer, %d calls reserving ~3,000 and using 1,200 of 24,000 per 2 s: waited %.2f s"
            + " settled, %.2f s left charged%n", CALLS, settled, unsettled);
    assertThat(settled).isZero();
    // 14 reservations of ~3,000 after the first answer, against 24,000 and 12,000 a second.
    assertThat(unsettled).isGreaterThan(1.0);
  }
}
