package dev.polite.vendors.anthropic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.anthropic.client.AnthropicClient;
import com.anthropic.client.okhttp.AnthropicOkHttpClient;
import com.anthropic.errors.RateLimitException;
import dev.polite.RateLimitedException;
import dev.polite.vendors.LoopbackServer;
import dev.polite.vendors.StalledCall;
import java.io.UncheckedIOException;
import org.junit.jupiter.api.Test;

/**
 * Every call refused with {@code retry-after: 3600}. The SDK honours a Retry-After however long
 * (its retry loop's own comment: "do what it says, however long"): alone it sleeps the hour, and
 * so it does with polite below it when it may retry what polite gave back. With the README's
 * layering the 429 polite gave back is marked {@code x-should-retry: false}: the caller has the
 * SDK's {@link RateLimitException} at once, and the next call is refused unsent.
 */
class AnthropicSpentBudgetTest {
  @org.junit.jupiter.api.BeforeAll
  static void warmUp() throws Exception {
    AnthropicClients.warmUp();
  }


  private static void assertStillWaiting(String way, AnthropicOkHttpClient.Builder sdk) throws Exception {
    try (LoopbackServer server = new LoopbackServer(AnthropicApi.spentForAnHour())) {
      AnthropicClient client = sdk.baseUrl(server.url()).apiKey("sk-ant-stand-in").build();
      try {
        assertThat(StalledCall.stillWaitingAfter(StalledCall.PATIENCE,
            i -> client.messages().create(AnthropicScenarioTest.message()))).isTrue();
        assertThat(server.requests()).isEqualTo(1);
        StalledCall.report(way, "still waiting after " + StalledCall.PATIENCE.toSeconds()
            + " s (retry-after 3600 s)", server.requests());
      } finally {
        client.close();
      }
    }
  }

  @Test
  void theSdkAloneSleepsTheHour() throws Exception {
    assertStillWaiting(AnthropicClients.ALONE.label, AnthropicOkHttpClient.builder());
  }

  @Test
  void theSdkSleepsTheHourPoliteGaveBackWhenItMayRetryRefusals() throws Exception {
    assertStillWaiting("polite + SDK retrying what polite gave back", AnthropicOkHttpClient.builder()
        .addInterceptor(PoliteAnthropicInterceptor.builder().sdkRetriesRefusals(true).build()));
  }

  @Test
  void theReadmesLayeringFailsAtOnceAndSendsNoMore() throws Exception {
    try (LoopbackServer server = new LoopbackServer(AnthropicApi.spentForAnHour())) {
      AnthropicClient client = AnthropicOkHttpClient.builder().baseUrl(server.url())
          .apiKey("sk-ant-stand-in").addInterceptor(PoliteAnthropicInterceptor.create()).build();
      try {
        long start = System.nanoTime();
        assertThatThrownBy(() -> client.messages().create(AnthropicScenarioTest.message()))
            .isInstanceOf(RateLimitException.class);
        double seconds = (System.nanoTime() - start) / 1e9;
        assertThatThrownBy(() -> client.messages().create(AnthropicScenarioTest.message()))
            .isInstanceOf(UncheckedIOException.class)
            .hasCauseInstanceOf(RateLimitedException.class);
        assertThat(server.requests()).isEqualTo(1);
        assertThat(seconds).isLessThan(StalledCall.PATIENCE.toSeconds());
        StalledCall.report(AnthropicClients.POLITE.label, String.format(java.util.Locale.ROOT,
            "RateLimitException after %.2f s; next call RateLimitedException, unsent", seconds),
            server.requests());
      } finally {
        client.close();
      }
    }
  }
}
