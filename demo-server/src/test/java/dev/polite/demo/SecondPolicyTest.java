package dev.polite.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Two policies in one field ({@code --second-policy}), end to end over HTTP on a clock the test
 * moves: both enforced per key, both listed in the IETF fields, the refusing one's Retry-After.
 */
class SecondPolicyTest extends ServedDemoTest {
  private static String header(HttpResponse<String> response, String name) {
    return response.headers().firstValue(name).orElse("none");
  }

  /** A bucket of 2 refilling 2 a second, and a window of 3 per 10 s; the clock is 0.25 s into a window. */
  private DemoServerConfig.Builder twoPolicies() {
    return DemoServer.builder().limit(2).window(Duration.ofSeconds(1))
        .secondPolicy(new SecondPolicy("window", 3, Duration.ofSeconds(10)));
  }

  @Test
  void bothPoliciesAreListedAndTheRefusingOneSaysWhenToComeBack() throws Exception {
    DemoServer server = start(twoPolicies());

    HttpResponse<String> first = get(server, "/api/items");
    assertThat(first.statusCode()).isEqualTo(200);
    assertThat(header(first, "RateLimit-Policy")).isEqualTo("\"default\";q=2;w=1, \"window\";q=3;w=10");
    assertThat(header(first, "RateLimit")).isEqualTo("\"default\";r=1;t=1, \"window\";r=2;t=10");
    assertThat(get(server, "/api/items").statusCode()).isEqualTo(200);
    HttpResponse<String> bucket = get(server, "/api/items");
    assertThat(bucket.statusCode()).as("the bucket refuses").isEqualTo(429);
    assertThat(header(bucket, "Retry-After")).isEqualTo("1");
    assertThat(header(bucket, "RateLimit")).as("the window did not count it")
        .isEqualTo("\"default\";r=0;t=1, \"window\";r=1;t=10");

    clock.advance(Duration.ofSeconds(1));
    assertThat(header(get(server, "/api/items"), "RateLimit")).isEqualTo("\"default\";r=1;t=1, \"window\";r=0;t=9");
    HttpResponse<String> window = get(server, "/api/items");
    assertThat(window.statusCode()).as("the bucket has a token, the window none").isEqualTo(429);
    assertThat(header(window, "Retry-After")).as("the window's end, 8.75 s rounded up").isEqualTo("9");
    assertThat(header(window, "RateLimit")).as("only the refusing policy: the bucket was not asked")
        .isEqualTo("\"window\";r=0;t=9");
    assertThat(header(window, "RateLimit-Policy")).isEqualTo("\"default\";q=2;w=1, \"window\";q=3;w=10");

    clock.advance(Duration.ofSeconds(9)); // the next window; the bucket is full again
    assertThat(get(server, "/api/items").statusCode()).isEqualTo(200);
    HttpResponse<String> again = get(server, "/api/items");
    assertThat(again.statusCode()).isEqualTo(200);
    assertThat(header(again, "RateLimit")).isEqualTo("\"default\";r=0;t=1, \"window\";r=1;t=10");
    assertThat(get(server, "/api/items", "X-Api-Key", "another").statusCode()).as("per key").isEqualTo(200);
    assertThat(server.stats().admitted()).isEqualTo(6);
    assertThat(server.stats().rejected()).isEqualTo(2);
  }

  @Test
  void theCombinationsItCannotCarryAreRefusedByName() {
    assertThatThrownBy(() -> twoPolicies().headers(HeaderStyle.X_RATELIMIT).build())
        .hasMessage("secondPolicy: two policies in one field need --headers ietf, was x-ratelimit");
    assertThatThrownBy(() -> twoPolicies().store("redis://127.0.0.1:6379").build())
        .hasMessage("secondPolicy: needs the memory store, was redis://127.0.0.1:6379");
    assertThatThrownBy(() -> twoPolicies().budget("/api/search", "search", 5, Duration.ofSeconds(1)).build())
        .hasMessageStartingWith("secondPolicy: not with --budget");
    assertThatThrownBy(() -> twoPolicies().limit(10).routeCost("/api/big", 4).build())
        .hasMessage("routeCost: /api/big costs 4 but the second policy window allows at most 3 per window");
    assertThatThrownBy(() -> new SecondPolicy("default", 3, Duration.ofSeconds(1)))
        .hasMessageStartingWith("secondPolicy: 'default' names the main policy");
    assertThatThrownBy(() -> new SecondPolicy("a b", 3, Duration.ofSeconds(1)))
        .hasMessageStartingWith("secondPolicy: the name must be");
    assertThatThrownBy(() -> new SecondPolicy("w", 0, Duration.ofSeconds(1)))
        .hasMessage("secondPolicy: the limit must be at least 1, was 0");
    assertThatThrownBy(() -> new SecondPolicy("w", 3, Duration.ZERO))
        .hasMessage("secondPolicy: the window must be 1 ms to 366 days, was PT0S");
    assertThat(DemoServer.builder().build().secondPolicy()).isEmpty();
    assertThat(twoPolicies().build().toString()).contains("second-policy=window:3/PT10S");
    assertThat(DemoServer.builder().build().toString()).doesNotContain("second-policy");
  }
}
