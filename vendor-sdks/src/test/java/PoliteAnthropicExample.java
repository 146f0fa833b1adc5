import com.anthropic.client.AnthropicClient;
import com.anthropic.client.okhttp.AnthropicOkHttpClient;
import com.anthropic.models.messages.Message;
import com.anthropic.models.messages.MessageCreateParams;
import com.anthropic.models.messages.Model;
import dev.polite.vendors.anthropic.PoliteAnthropicInterceptor;

public final class PoliteAnthropicExample {
  public static void main(String[] args) {
    AnthropicClient client = AnthropicOkHttpClient.builder()
        .apiKey(System.getenv().getOrDefault("ANTHROPIC_API_KEY", "sk-ant-none"))
        .baseUrl(args.length > 0 ? args[0] : "https://api.anthropic.com")
        // polite paces requests and tokens and retries 429s; the SDK keeps its retries
        // (maxRetries, 2) for 529 and 5xx, which polite does not repeat for a POST. A 429
        // polite gives back comes with x-should-retry: false, so the SDK does not sleep it out.
        .addInterceptor(PoliteAnthropicInterceptor.create())
        .build();
    try {
      Message message = client.messages().create(MessageCreateParams.builder()
          .model(Model.CLAUDE_SONNET_4_5)
          .maxTokens(1024) // reserved with the prompt, settled from the answer's usage
          .addUserMessage("Say hello.")
          .build());
      System.out.println(message.usage().outputTokens() + " tokens written");
    } finally {
      client.close();
    }
  }
}
