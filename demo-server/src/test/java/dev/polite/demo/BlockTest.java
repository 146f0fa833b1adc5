package dev.polite.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A block once over ({@code --block-for}), end to end over HTTP on a clock the test moves: each
 * call during the block is refused and restarts it, and the refusals say only when to come back.
 */
class BlockTest extends ServedDemoTest {
  private static String header(HttpResponse<String> response, String name) {
    return response.headers().firstValue(name).orElse("none");
  }

  @Test
  void aCallDuringTheBlockIsRefusedAndRestartsIt() throws Exception {
    // 2 per 10 s: a token every 5 s; once refused, blocked for 1.5 s after the latest refused call
    DemoServer server = start(DemoServer.builder().limit(2).window(Duration.ofSeconds(10))
        .headers(HeaderStyle.X_RATELIMIT).blockFor(Duration.ofMillis(1500)));

    assertThat(get(server, "/api/items").statusCode()).isEqualTo(200);
    HttpResponse<String> admitted = get(server, "/api/items");
    assertThat(header(admitted, "x-ratelimit-remaining")).as("admitted calls carry the quota").isEqualTo("0");
    HttpResponse<String> over = get(server, "/api/items");
    assertThat(over.statusCode()).isEqualTo(429);
    assertThat(header(over, "Retry-After")).as("the block, 1.5 s rounded up, not the bucket's 5 s").isEqualTo("2");
    assertThat(over.headers().map().keySet()).as("no quota headers").noneMatch(name -> name.startsWith("x-ratelimit"));

    clock.advance(Duration.ofMillis(1000)); // within the block: refused, and it now ends at 2.5 s
    HttpResponse<String> early = get(server, "/api/items");
    assertThat(early.statusCode()).isEqualTo(429);
    assertThat(header(early, "Retry-After")).isEqualTo("2");
    assertThat(early.headers().map().keySet()).noneMatch(name -> name.startsWith("x-ratelimit"));
    clock.advance(Duration.ofMillis(1400)); // 2.4 s: past the first block's end, not the restarted one's
    assertThat(get(server, "/api/items").statusCode()).isEqualTo(429); // ends at 3.9 s now
    clock.advance(Duration.ofMillis(1499));
    assertThat(get(server, "/api/items").statusCode()).as("1 ms before its end").isEqualTo(429); // 5.4 s
    assertThat(get(server, "/api/items", "X-Api-Key", "someone-else").statusCode()).as("a key of its own")
        .isEqualTo(200);

    clock.advance(Duration.ofMillis(1500)); // 6.899 s: the block is over, and the bucket has a token again
    HttpResponse<String> after = get(server, "/api/items");
    assertThat(after.statusCode()).isEqualTo(200);
    assertThat(header(after, "x-ratelimit-remaining")).isEqualTo("0");
    HttpResponse<String> again = get(server, "/api/items");
    assertThat(again.statusCode()).as("over again: a new block").isEqualTo(429);
    assertThat(header(again, "Retry-After")).isEqualTo("2");
    assertThat(server.stats().rejected()).isEqualTo(5);
    assertThat(server.stats().admitted()).isEqualTo(4);
  }

  @Test
  void withoutABlockARefusalSaysWhatTheBucketSays() throws Exception {
    DemoServer server = start(DemoServer.builder().limit(2).window(Duration.ofSeconds(10))
        .headers(HeaderStyle.X_RATELIMIT));
    get(server, "/api/items");
    get(server, "/api/items");
    HttpResponse<String> over = get(server, "/api/items");
    assertThat(header(over, "Retry-After")).isEqualTo("5");
    assertThat(header(over, "x-ratelimit-remaining")).isEqualTo("0");
    clock.advance(Duration.ofMillis(5000));
    assertThat(get(server, "/api/items").statusCode()).isEqualTo(200);
  }

  @Test
  void theCapsRefusalsStartNoBlock() throws Exception {
    DemoServer server = start(DemoServer.builder().limit(100).concurrency(1).latency(Duration.ofMillis(300))
        .blockFor(Duration.ofSeconds(60)));
    var slow = http.sendAsync(java.net.http.HttpRequest.newBuilder(server.url().resolve("/api/slow")).build(),
        HttpResponse.BodyHandlers.ofString());
    long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
    while (server.stats().admitted() < 1 && System.nanoTime() < deadline) {
      Thread.onSpinWait();
    }
    HttpResponse<String> capped = get(server, "/api/items");
    assertThat(capped.statusCode()).isEqualTo(429);
    assertThat(capped.body()).contains("concurrency");
    assertThat(slow.get().statusCode()).isEqualTo(200);
    assertThat(get(server, "/api/items").statusCode()).as("no block followed the cap's refusal").isEqualTo(200);
  }
}
