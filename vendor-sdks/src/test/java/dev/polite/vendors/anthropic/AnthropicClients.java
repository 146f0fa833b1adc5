package dev.polite.vendors.anthropic;

import com.anthropic.client.AnthropicClient;
import com.anthropic.client.okhttp.AnthropicOkHttpClient;

/**
 * The ways of calling Anthropic the scenarios compare, each anthropic-java's
 * {@code AnthropicOkHttpClient}: the SDK as it comes (two retries, honouring {@code retry-after}
 * however long), polite inside it with the SDK's retries as they come, and the two ways of
 * turning one retry layer off: the SDK's ({@code maxRetries(0)}: polite alone, which does not
 * repeat a POST after a 529), or polite's for refusals, so that the SDK retries everything and
 * polite only paces, pauses and budgets tokens. The README's is the first with polite: both
 * layers on, each for what it does well, polite's answers telling the SDK not to retry a 429 it
 * gave up on ({@link PoliteAnthropicInterceptor.Builder#sdkRetriesRefusals}).
 */
enum AnthropicClients {
  ALONE("anthropic-java alone (maxRetries 2)"),
  POLITE("polite + SDK retries for 529 (README)"),
  POLITE_SDK_RETRIES_OFF("polite + maxRetries(0)"),
  POLITE_PACES_ONLY("polite paces, SDK retries all");

  final String label;

  AnthropicClients(String label) {
    this.label = label;
  }

  private static boolean warm;

  /**
   * One call through the SDK and through polite, against a server of its own, once per JVM: the
   * SDK's first call loads and links its classes for seconds, which no measured run should pay.
   */
  static synchronized void warmUp() throws Exception {
    if (warm) {
      return;
    }
    try (dev.polite.vendors.LoopbackServer server =
        new dev.polite.vendors.LoopbackServer(AnthropicApi.neverOverloaded())) {
      for (AnthropicClients way : values()) {
        AnthropicClient client = way.connect(server.url());
        try {
          client.messages().create(AnthropicScenarioTest.message());
        } finally {
          client.close();
        }
      }
    }
    warm = true;
  }

  AnthropicClient connect(String baseUrl) {
    AnthropicOkHttpClient.Builder b = AnthropicOkHttpClient.builder()
        .apiKey("sk-ant-stand-in")
        .baseUrl(baseUrl);
    switch (this) {
      case ALONE -> { }
      case POLITE -> b.addInterceptor(PoliteAnthropicInterceptor.builder()
          .tokens(dev.polite.okhttp.PoliteInterceptor.builder(), AnthropicScenarioTest.WINDOW).build());
      case POLITE_SDK_RETRIES_OFF -> b.maxRetries(0).addInterceptor(PoliteAnthropicInterceptor.builder()
          .tokens(dev.polite.okhttp.PoliteInterceptor.builder(), AnthropicScenarioTest.WINDOW).build());
      case POLITE_PACES_ONLY -> b.addInterceptor(PoliteAnthropicInterceptor.builder()
          .requests(dev.polite.okhttp.PoliteInterceptor.builder().maxRateLimitRetries(0))
          .tokens(dev.polite.okhttp.PoliteInterceptor.builder(), AnthropicScenarioTest.WINDOW)
          .sdkRetriesRefusals(true).build());
    }
    return b.build();
  }
}
