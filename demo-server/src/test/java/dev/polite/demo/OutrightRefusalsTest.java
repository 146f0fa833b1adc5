package dev.polite.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Refusals no limiter makes, end to end over HTTP: a server that refuses everything
 * ({@code --refuse-all}) and one that refuses every Nth answer with a hint no one can use
 * ({@code --bogus-refusal-every}). Each says only when to come back, whatever the header style.
 */
class OutrightRefusalsTest extends ServedDemoTest {
  private static String header(HttpResponse<String> response, String name) {
    return response.headers().firstValue(name).orElse("none");
  }

  private static boolean quotaHeaders(HttpResponse<String> response) {
    return response.headers().map().keySet().stream().anyMatch(name -> name.toLowerCase().startsWith("ratelimit"));
  }

  @Test
  void aServerThatRefusesEverythingSaysRetryAfterZeroAndNothingElse() throws Exception {
    DemoServer server = start(DemoServer.builder().limit(1000).refuseAll(true));

    for (int i = 0; i < 5; i++) {
      HttpResponse<String> refused = get(server, "/api/items", "X-Api-Key", "key-" + i);
      assertThat(refused.statusCode()).isEqualTo(429);
      assertThat(header(refused, "Retry-After")).isEqualTo("0");
      assertThat(quotaHeaders(refused)).as("no RateLimit, though the style is ietf").isFalse();
      assertThat(refused.body()).contains("\"status\":429");
    }
    assertThat(server.stats().rejected()).isEqualTo(5);
    assertThat(server.stats().admitted()).isZero();
    assertThat(get(server, "/health").statusCode()).as("health is never limited").isEqualTo(200);

    DemoServer forbidding = start(DemoServer.builder().refuseAll(true).rejectStatus(403)
        .refuseAllRetryAfter(Duration.ofMillis(1500)));
    HttpResponse<String> forbidden = get(forbidding, "/api/items");
    assertThat(forbidden.statusCode()).isEqualTo(403);
    assertThat(header(forbidden, "Retry-After")).as("whole seconds, rounded up").isEqualTo("2");
  }

  @Test
  void everyNthAnswerIsARefusalWhoseHintIsADay() throws Exception {
    DemoServer server = start(DemoServer.builder().limit(1000).headers(HeaderStyle.X_RATELIMIT)
        .bogusRefusalEvery(3));

    List<HttpResponse<String>> answers = new ArrayList<>();
    for (int i = 0; i < 7; i++) {
      // the count is the whole server's: the Nth answer falls on whichever key comes Nth
      answers.add(get(server, "/api/items", "X-Api-Key", i % 2 == 0 ? "alice" : "bob"));
    }
    assertThat(answers).extracting(HttpResponse::statusCode).containsExactly(200, 200, 429, 200, 200, 429, 200);
    HttpResponse<String> bogus = answers.get(2);
    assertThat(header(bogus, "Retry-After")).isEqualTo("86400");
    assertThat(bogus.headers().map().keySet()).as("no quota headers").noneMatch(name -> name.startsWith("x-ratelimit"));
    assertThat(header(answers.get(3), "x-ratelimit-remaining")).as("the limiter was not asked for the refused ones")
        .isEqualTo("998");
    assertThat(server.stats().rejected()).isEqualTo(2);
    assertThat(server.stats().admitted()).isEqualTo(5);

    DemoServer hourly = start(DemoServer.builder().limit(1000).bogusRefusalEvery(2)
        .bogusRetryAfter(Duration.ofHours(1)));
    get(hourly, "/api/items");
    assertThat(header(get(hourly, "/api/items"), "Retry-After")).isEqualTo("3600");
  }

  @Test
  void inDryRunTheyAreCountedButServed() throws Exception {
    DemoServer server = start(DemoServer.builder().limit(1000).refuseAll(true).dryRun(true));

    assertThat(get(server, "/api/items").statusCode()).isEqualTo(200);
    assertThat(server.stats().rejected()).as("the would-be refusal").isEqualTo(1);
  }
}
