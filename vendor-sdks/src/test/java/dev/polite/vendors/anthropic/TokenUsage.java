package dev.polite.vendors.anthropic;

import com.anthropic.core.http.HttpRequest;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.OptionalLong;

/**
 * What a Messages call may cost in tokens before it is sent, and what it did cost after: the
 * reservation is the prompt's estimate plus {@code max_tokens} (the most it may write), the
 * settlement the answer's {@code usage.input_tokens + output_tokens}. The estimate is a quarter of
 * the prompt's JSON characters (system and messages), the usual rule of thumb for English text; the
 * JSON's own quotes and brackets make it err high, the safe side for a reservation. An exact count
 * would cost a call to {@code /v1/messages/count_tokens}, itself rate limited.
 */
final class TokenUsage {
  private static final ObjectMapper JSON = new ObjectMapper();

  private TokenUsage() {}

  /** The tokens to reserve for {@code request}, or empty when it is not a Messages call. */
  static OptionalLong reservation(HttpRequest request) {
    if (!request.url().endsWith("/v1/messages") || request.body().isEmpty()) {
      return OptionalLong.empty();
    }
    JsonNode body;
    try {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      request.body().get().writeTo(bytes); // the SDK's JSON bodies are buffered and repeatable
      body = JSON.readTree(bytes.toByteArray());
    } catch (IOException | RuntimeException e) {
      return OptionalLong.empty();
    }
    long prompt = body.path("system").toString().length() + body.path("messages").toString().length();
    return OptionalLong.of((prompt + 3) / 4 + body.path("max_tokens").asLong(0));
  }

  /** The tokens a Messages answer says it used, or empty when it says nothing of it. */
  static OptionalLong used(byte[] answer) {
    try {
      JsonNode usage = JSON.readTree(answer).path("usage");
      if (!usage.has("input_tokens") || !usage.has("output_tokens")) {
        return OptionalLong.empty();
      }
      return OptionalLong.of(usage.path("input_tokens").asLong() + usage.path("output_tokens").asLong());
    } catch (IOException e) {
      return OptionalLong.empty();
    }
  }
}
