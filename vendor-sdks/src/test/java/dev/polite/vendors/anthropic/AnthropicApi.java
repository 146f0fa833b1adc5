package dev.polite.vendors.anthropic;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.polite.vendors.LoopbackServer.Api;
import dev.polite.vendors.LoopbackServer.Exchange;
import dev.polite.vendors.LoopbackServer.Reply;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A stand-in for api.anthropic.com's {@code POST /v1/messages}, answering as its rate-limit page
 * documents and as captured answers show (reference/header-dialects.md §3.7): every answer carries
 * {@code anthropic-ratelimit-requests-*}, {@code -input-tokens-*}, {@code -output-tokens-*} and
 * {@code -tokens-*} ({@code limit}, {@code remaining}, and {@code reset} as the RFC 3339 moment the
 * budget is full again; the tokens' remaining rounded to the thousand); a refusal is a 429 with
 * {@code retry-after} in seconds and a {@code rate_limit_error} body; an overload is a 529
 * {@code overloaded_error}, whoever asks. A success is a Message the SDK parses, with its
 * {@code usage}.
 *
 * <p>Budgets refill continuously, as Anthropic's do, at a scale that runs in seconds (each full
 * again after 2 s): 20 requests; 40,000 input and 20,000 output tokens; and 24,000 tokens of both,
 * the one that binds here (a workspace's limit, say: the headers' {@code tokens-*} report the most
 * restrictive limit in effect). As Anthropic counts output tokens, a call is charged its
 * {@code max_tokens} when admitted and what it really wrote when it ends: the server's own
 * reserve and settle. Input tokens are counted as a quarter of the prompt's characters, the rule
 * of thumb the polite side estimates with too. Each call takes 30 ms; every tenth call (the 7th,
 * 17th, …) is answered 529, limits or not.
 */
public final class AnthropicApi implements Api {
  private static final ObjectMapper JSON = new ObjectMapper();
  /** What each answer writes, whatever {@code max_tokens} allowed. */
  public static final long OUTPUT_TOKENS = 200;

  private final RefillingBudget requests;
  private final RefillingBudget input;
  private final RefillingBudget output;
  private final RefillingBudget tokens;
  private final boolean overloads;
  private final boolean spent;
  private final Duration serviceTime;
  private final AtomicInteger calls = new AtomicInteger();
  private final AtomicInteger ok = new AtomicInteger();
  private final AtomicInteger rateLimited = new AtomicInteger();
  private final AtomicInteger overloaded = new AtomicInteger();

  private AnthropicApi(boolean overloads, Duration serviceTime, boolean spent) {
    this.spent = spent;
    long now = System.currentTimeMillis();
    this.requests = new RefillingBudget(20, 2_000, now);
    this.input = new RefillingBudget(40_000, 2_000, now);
    this.output = new RefillingBudget(20_000, 2_000, now);
    this.tokens = new RefillingBudget(24_000, 2_000, now);
    this.overloads = overloads;
    this.serviceTime = serviceTime;
  }

  /** The scenario's server: the budgets above, 30 ms a call, every tenth call overloaded. */
  public static AnthropicApi scaledDown() {
    return new AnthropicApi(true, Duration.ofMillis(30), false);
  }

  /** The same budgets, never overloaded, answering at once: for the token-budget test. */
  public static AnthropicApi neverOverloaded() {
    return new AnthropicApi(false, Duration.ZERO, false);
  }

  /** Every call refused for the next hour ({@code retry-after: 3600}), as a spent budget is. */
  public static AnthropicApi spentForAnHour() {
    return new AnthropicApi(false, Duration.ZERO, true);
  }

  /** The input tokens the stand-in counts for a prompt of {@code characters}. */
  static long inputTokens(long characters) {
    return (characters + 3) / 4;
  }

  @Override
  public Reply answer(Exchange request) throws Exception {
    if (!request.method().equals("POST") || !request.path().equals("/v1/messages")) {
      return Reply.json(404, Map.of(), error("not_found_error", "Not found: " + request.path()));
    }
    JsonNode body = JSON.readTree(request.body());
    long maxTokens = body.path("max_tokens").asLong();
    long prompt = inputTokens(promptCharacters(body));
    int call = calls.incrementAndGet();
    long now = System.currentTimeMillis();
    if (overloads && call % 10 == 7) {
      overloaded.incrementAndGet();
      return Reply.json(529, Map.of(), error("overloaded_error", "Overloaded"));
    }
    String refused = null;
    long waitMillis = 0;
    synchronized (this) {
      if (spent) {
        refused = "requests";
        waitMillis = 3_600_000;
      } else if (!requests.has(1, now)) {
        refused = "requests";
        waitMillis = requests.millisUntil(1, now);
      } else if (!input.has(prompt, now)) {
        refused = "input tokens";
        waitMillis = input.millisUntil(prompt, now);
      } else if (!output.has(maxTokens, now)) {
        refused = "output tokens";
        waitMillis = output.millisUntil(maxTokens, now);
      } else if (!tokens.has(prompt + maxTokens, now)) {
        refused = "tokens";
        waitMillis = tokens.millisUntil(prompt + maxTokens, now);
      } else {
        requests.take(1, now);
        input.take(prompt, now);
        output.take(maxTokens, now);
        tokens.take(prompt + maxTokens, now);
      }
    }
    if (refused != null) {
      rateLimited.incrementAndGet();
      Map<String, String> headers = new LinkedHashMap<>();
      headers.put("retry-after", Long.toString(Math.max(1, (waitMillis + 999) / 1000)));
      headers.putAll(limitHeaders(now));
      return Reply.json(429, headers, error("rate_limit_error",
          "This request would exceed your organization's rate limit of " + refused
              + ". For details, refer to: https://docs.claude.com/en/api/rate-limits."));
    }
    Thread.sleep(serviceTime.toMillis());
    long written = Math.min(maxTokens, OUTPUT_TOKENS);
    long end = System.currentTimeMillis();
    output.take(written - maxTokens, end); // the unwritten part of max_tokens comes back
    tokens.take(written - maxTokens, end);
    ok.incrementAndGet();
    Map<String, String> headers = new LinkedHashMap<>(limitHeaders(end));
    headers.put("request-id", "req_" + call);
    return Reply.json(200, headers, message(call, body.path("model").asText(), prompt, written));
  }

  private static long promptCharacters(JsonNode body) {
    long characters = body.path("system").asText("").length();
    for (JsonNode m : body.path("messages")) {
      JsonNode content = m.path("content");
      if (content.isTextual()) {
        characters += content.asText().length();
      } else {
        for (JsonNode block : content) {
          characters += block.path("text").asText("").length();
        }
      }
    }
    return characters;
  }

  private Map<String, String> limitHeaders(long now) {
    Map<String, String> h = new LinkedHashMap<>();
    quota(h, "requests", requests, now, false);
    quota(h, "input-tokens", input, now, false);
    quota(h, "output-tokens", output, now, false);
    quota(h, "tokens", tokens, now, true);
    return h;
  }

  private static void quota(Map<String, String> h, String name, RefillingBudget b, long now,
      boolean roundToThousand) {
    long remaining = b.remaining(now);
    if (roundToThousand) {
      remaining = Math.round(remaining / 1000.0) * 1000;
    }
    h.put("anthropic-ratelimit-" + name + "-limit", Long.toString(b.limit()));
    h.put("anthropic-ratelimit-" + name + "-remaining", Long.toString(remaining));
    // RFC 3339 in whole seconds, as Anthropic sends it, rounded up: full again by then.
    Instant full = Instant.ofEpochMilli(b.fullAtMillis(now) + 999).truncatedTo(ChronoUnit.SECONDS);
    h.put("anthropic-ratelimit-" + name + "-reset", full.toString());
  }

  private static String error(String type, String message) {
    return "{\"type\":\"error\",\"error\":{\"type\":\"" + type + "\",\"message\":\"" + message
        + "\"},\"request_id\":\"req_stand_in\"}";
  }

  private static String message(int call, String model, long inputTokens, long outputTokens) {
    return "{\"id\":\"msg_" + call + "\",\"type\":\"message\",\"role\":\"assistant\","
        + "\"model\":\"" + model + "\",\"content\":[{\"type\":\"text\",\"text\":\"Hello.\","
        + "\"citations\":null}],\"stop_reason\":\"end_turn\",\"stop_sequence\":null,"
        + "\"container\":null,\"usage\":{\"input_tokens\":" + inputTokens
        + ",\"output_tokens\":" + outputTokens + ",\"cache_creation_input_tokens\":0,"
        + "\"cache_read_input_tokens\":0,\"cache_creation\":null,\"server_tool_use\":null,"
        + "\"service_tier\":\"standard\"}}";
  }

  /** Calls answered 200. */
  public int admitted() {
    return ok.get();
  }

  /** 429s sent. */
  public int rateLimited() {
    return rateLimited.get();
  }

  /** 529s sent. */
  public int overloaded() {
    return overloaded.get();
  }
}
