package dev.polite.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** End to end over HTTP against the real server on an ephemeral loopback port. */
class DemoServerTest extends ServedDemoTest {
  private JsonNode stats(DemoServer server) throws Exception {
    return JSON.readTree(get(server, "/stats").body());
  }

  /**
   * The reference's reserve-and-refund run: 10,000 units a minute; reserve 4,000 (6,000 left); a
   * 7,000 call is refused with a retry in 6.0 s; the unused 2,400 come back (8,400 left), and the
   * 7,000 call is allowed. Every algorithm of the bucket family agrees.
   */
  @Test
  void aClientNamesItsCostAndGivesBackWhatItDidNotUse() throws Exception {
    for (Algorithm algorithm : List.of(Algorithm.TOKEN_BUCKET, Algorithm.GCRA, Algorithm.LEAKY_METER)) {
      DemoServer server = start(DemoServer.builder().algorithm(algorithm).limit(10_000)
          .window(Duration.ofMinutes(1)).costHeader("X-Cost"));
      HttpResponse<String> reserved = get(server, "/api/chat", "X-Cost", "4000");
      assertThat(reserved.statusCode()).as(algorithm.cliName()).isEqualTo(200);
      assertThat(JSON.readTree(reserved.body()).get("remaining").asLong()).isEqualTo(6_000);

      HttpResponse<String> tooBig = get(server, "/api/chat", "X-Cost", "7000");
      assertThat(tooBig.statusCode()).as(algorithm.cliName()).isEqualTo(429);
      assertThat(tooBig.headers().firstValue("Retry-After")).hasValue("6");

      HttpResponse<String> refund = get(server, "/api/chat", "X-Cost", "-2400");
      assertThat(refund.statusCode()).isEqualTo(200);
      assertThat(JSON.readTree(refund.body()).get("remaining").asLong()).isEqualTo(8_400);

      HttpResponse<String> allowed = get(server, "/api/chat", "X-Cost", "7000");
      assertThat(allowed.statusCode()).as(algorithm.cliName()).isEqualTo(200);
      assertThat(JSON.readTree(allowed.body()).get("remaining").asLong()).isEqualTo(1_400);

      HttpResponse<String> tooMuchBack = get(server, "/api/chat", "X-Cost", "-9000");
      assertThat(JSON.readTree(tooMuchBack.body()).get("remaining").asLong())
          .as("a refund stops at the capacity").isEqualTo(10_000);
      assertThat(stats(server).get("admitted").asLong()).as("refunds are not requests").isEqualTo(2);
    }
  }

  @Test
  void aCostTheServerCannotTakeIsABadRequest() throws Exception {
    DemoServer server = start(DemoServer.builder().limit(10).window(Duration.ofSeconds(10))
        .costHeader("X-Cost"));
    assertThat(get(server, "/api/a", "X-Cost", "eleven").statusCode()).isEqualTo(400);
    assertThat(get(server, "/api/a", "X-Cost", "11").body()).contains("must be 1 to 10 units");
    assertThat(get(server, "/api/a", "X-Cost", "0").statusCode()).isEqualTo(400);
    assertThat(get(server, "/api/a", "X-Cost", "-11").statusCode()).isEqualTo(400);
    DemoServer window = start(DemoServer.builder().algorithm(Algorithm.FIXED_WINDOW).limit(10)
        .window(Duration.ofSeconds(10)).costHeader("X-Cost"));
    assertThat(get(window, "/api/a", "X-Cost", "-1").body()).contains("takes no refunds");
    assertThat(get(window, "/api/a", "X-Cost", "3").statusCode()).isEqualTo(200);
    DemoServer off = start(DemoServer.builder().limit(10).window(Duration.ofSeconds(10)));
    assertThat(get(off, "/api/a", "X-Cost", "-5").statusCode()).as("no cost header: ignored").isEqualTo(200);
  }

  @Test
  void admitsTheLimitThenAnswers429WithRetryAfterAndQuotaHeaders() throws Exception {
    DemoServer server = start(DemoServer.builder().limit(5).window(Duration.ofSeconds(10)).burst(5));
    assertThat(server.port()).isPositive();
    for (int i = 0; i < 5; i++) {
      HttpResponse<String> ok = get(server, "/api/items");
      assertThat(ok.statusCode()).isEqualTo(200);
      assertThat(JSON.readTree(ok.body()).get("ok").asBoolean()).isTrue();
      assertThat(ok.headers().firstValue("RateLimit-Policy")).hasValue("\"default\";q=5;w=10");
      String expected = "\"default\";r=" + (4 - i) + ";t=";
      assertThat(ok.headers().firstValue("RateLimit")).hasValueSatisfying(v -> assertThat(v).startsWith(expected));
      assertThat(ok.headers().firstValue("Retry-After")).isEmpty();
    }
    HttpResponse<String> limited = get(server, "/api/items");
    assertThat(limited.statusCode()).isEqualTo(429);
    assertThat(limited.headers().firstValue("Retry-After")).hasValue("2");
    assertThat(limited.headers().firstValue("RateLimit")).hasValue("\"default\";r=0;t=2");
    assertThat(limited.headers().firstValue("RateLimit-Policy")).hasValue("\"default\";q=5;w=10");
    assertThat(limited.headers().firstValue("Content-Type")).hasValue("application/problem+json");

    clock.advance(Duration.ofSeconds(2)); // one token back
    assertThat(get(server, "/api/items").statusCode()).isEqualTo(200);
    assertThat(get(server, "/api/items").statusCode()).isEqualTo(429);

    StatsSnapshot stats = server.stats();
    assertThat(stats.key("ip:127.0.0.1")).isNotNull();
    assertThat(stats.key("ip:127.0.0.1").admitted()).isEqualTo(6);
    assertThat(stats.key("ip:127.0.0.1").rejected()).isEqualTo(2);
  }

  @Test
  void aPortInUseSaysWhereItCouldNotListen() throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      assertThatThrownBy(() -> start(DemoServer.builder().port(taken.getLocalPort())))
          .isInstanceOf(UncheckedIOException.class)
          .hasCauseInstanceOf(BindException.class)
          .hasMessageStartingWith("cannot listen on 127.0.0.1:" + taken.getLocalPort() + ": ");
    }
  }

  @Test
  void healthIsNeverLimitedAndUnknownPathsAre404() throws Exception {
    DemoServer server = start(DemoServer.builder().limit(1).window(Duration.ofMinutes(1)));
    assertThat(get(server, "/api/x").statusCode()).isEqualTo(200);
    assertThat(get(server, "/api/x").statusCode()).isEqualTo(429);
    for (int i = 0; i < 20; i++) {
      assertThat(get(server, "/health").statusCode()).isEqualTo(200);
    }
    assertThat(get(server, "/nope").statusCode()).isEqualTo(404);
  }

  @Test
  void statsAsJsonPerKeyWithATimelineAndAReset() throws Exception {
    DemoServer server = start(DemoServer.builder().limit(2).window(Duration.ofMinutes(1)));
    for (int i = 0; i < 3; i++) {
      get(server, "/api/a");
    }
    clock.advance(Duration.ofSeconds(1));
    get(server, "/api/a");
    JsonNode stats = stats(server);
    assertThat(stats.get("algorithm").asText()).isEqualTo("token-bucket");
    assertThat(stats.get("admitted").asLong()).isEqualTo(2);
    assertThat(stats.get("rejected").asLong()).isEqualTo(2);
    JsonNode key = stats.get("keys").get("ip:127.0.0.1");
    assertThat(key.get("admitted").asLong()).isEqualTo(2);
    assertThat(key.get("rejected").asLong()).isEqualTo(2);
    JsonNode timeline = key.get("timeline");
    assertThat(timeline).hasSize(2);
    assertThat(timeline.get(0).get("t").asLong()).isZero();
    assertThat(timeline.get(0).get("admitted").asLong()).isEqualTo(2);
    assertThat(timeline.get(0).get("rejected").asLong()).isEqualTo(1);
    assertThat(timeline.get(1).get("t").asLong()).isEqualTo(1);
    assertThat(timeline.get(1).get("rejected").asLong()).isEqualTo(1);

    HttpResponse<String> reset = http.send(HttpRequest.newBuilder(server.url().resolve("/stats/reset"))
        .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(reset.statusCode()).isEqualTo(200);
    assertThat(stats(server).get("keys").size()).isZero();
    assertThat(get(server, "/stats/reset").statusCode()).isEqualTo(405);
  }

  @Test
  void statsShowTheBusiestKeysABoundedTopOrOneKey() throws Exception {
    DemoServer server = start(DemoServer.builder().limit(100).window(Duration.ofMinutes(1)));
    for (int client = 1; client <= 25; client++) {
      for (int i = 0; i < client; i++) { // client n sends n requests: the busiest are the last
        get(server, "/api/a", "X-Api-Key", "client-" + client);
      }
    }
    JsonNode stats = stats(server);
    assertThat(stats.get("keysCounted").asInt()).isEqualTo(25);
    assertThat(stats.get("keysShown").asInt()).isEqualTo(20);
    List<String> shown = new ArrayList<>();
    stats.get("keys").fieldNames().forEachRemaining(shown::add);
    assertThat(shown).hasSize(20).first().isEqualTo(server.stats().apiKey("client-25").key());
    assertThat(stats.get("keys").get(shown.get(0)).get("admitted").asLong()).isEqualTo(25);

    assertThat(JSON.readTree(get(server, "/stats?top=3").body()).get("keys").size()).isEqualTo(3);
    assertThat(JSON.readTree(get(server, "/stats?top=0").body()).get("keys").size()).isZero();
    assertThat(JSON.readTree(get(server, "/stats?top=1000").body()).get("keys").size()).isEqualTo(25);
    for (String bad : List.of("1001", "-1", "x", "99999999999")) {
      HttpResponse<String> refused = get(server, "/stats?top=" + bad);
      assertThat(refused.statusCode()).as("top=%s", bad).isEqualTo(400);
      assertThat(refused.body()).contains("top: must be a whole number from 0 to 1000");
    }
    String alice = server.stats().apiKey("client-7").key();
    JsonNode one = JSON.readTree(get(server, "/stats?key=" + alice).body());
    assertThat(one.get("keys").size()).isEqualTo(1);
    assertThat(one.get("keys").get(alice).get("admitted").asLong()).isEqualTo(7);
    assertThat(JSON.readTree(get(server, "/stats?key=ip:192.0.2.1").body()).get("keys").size()).isZero();
    // The in-process API still sees every key.
    assertThat(server.stats().keys()).hasSize(25);
  }

  @Test
  void withAnAdminTokenOnlyItsBearerMayResetTheStats() throws Exception {
    DemoServer server = start(DemoServer.builder().adminToken("s3cret-token"));
    get(server, "/api/a");
    assertThat(server.config().toString()).contains("admin-token=***").doesNotContain("s3cret");
    for (String authorization : new String[] {null, "Bearer wrong-token", "s3cret-token", "Bearer s3cret-token-2"}) {
      HttpRequest.Builder reset = HttpRequest.newBuilder(server.url().resolve("/stats/reset"))
          .POST(HttpRequest.BodyPublishers.noBody());
      if (authorization != null) {
        reset.header("Authorization", authorization);
      }
      HttpResponse<String> refused = http.send(reset.build(), HttpResponse.BodyHandlers.ofString());
      assertThat(refused.statusCode()).as("Authorization: %s", authorization).isEqualTo(401);
      assertThat(refused.headers().firstValue("WWW-Authenticate")).hasValueSatisfying(v -> assertThat(v).startsWith("Bearer"));
    }
    assertThat(server.stats().admitted()).isEqualTo(1);
    HttpResponse<String> reset = http.send(HttpRequest.newBuilder(server.url().resolve("/stats/reset"))
        .header("Authorization", "Bearer s3cret-token").POST(HttpRequest.BodyPublishers.noBody()).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(reset.statusCode()).isEqualTo(200);
    assertThat(server.stats().admitted()).isZero();
    assertThatThrownBy(() -> DemoServer.builder().adminToken("short")).hasMessageStartingWith("adminToken: must be");
  }

  @Test
  void apiKeysChooseTheKeyAndAreNotShownVerbatim() throws Exception {
    DemoServer server = start(DemoServer.builder().limit(1).window(Duration.ofMinutes(1)));
    assertThat(get(server, "/api/a", "X-Api-Key", "sk_live_alice").statusCode()).isEqualTo(200);
    assertThat(get(server, "/api/a", "X-Api-Key", "sk_live_bob").statusCode()).isEqualTo(200);
    assertThat(get(server, "/api/a", "X-Api-Key", "sk_live_alice").statusCode()).isEqualTo(429);
    assertThat(get(server, "/api/a").statusCode()).isEqualTo(200); // the address is a third key
    String body = get(server, "/stats").body();
    assertThat(body).doesNotContain("sk_live");
    assertThat(server.stats().apiKey("sk_live_alice").rejected()).isEqualTo(1);
  }

  @Test
  void forwardedForFromAnUntrustedPeerIsIgnored() throws Exception {
    DemoServer server = start(DemoServer.builder().limit(1).window(Duration.ofMinutes(1)));
    for (int i = 0; i < 3; i++) {
      get(server, "/api/a", "X-Forwarded-For", "203.0.113." + i);
    }
    assertThat(stats(server).get("keys").fieldNames()).toIterable().containsExactly("ip:127.0.0.1");
  }

  @Test
  void forwardedForFromATrustedProxyIsReadFromTheRight() throws Exception {
    DemoServer server = start(DemoServer.builder().limit(1).window(Duration.ofMinutes(1))
        .trustedProxies(List.of("127.0.0.1", "10.0.0.5")));
    assertThat(get(server, "/api/a", "X-Forwarded-For", "6.6.6.6, 203.0.113.7, 10.0.0.5").statusCode()).isEqualTo(200);
    assertThat(get(server, "/api/a", "X-Forwarded-For", "7.7.7.7, 203.0.113.7").statusCode()).isEqualTo(429);
    assertThat(server.stats().key("ip:203.0.113.7").rejected()).isEqualTo(1);
  }

  @Test
  void routeCostsAreChargedByTheServer() throws Exception {
    DemoServer server = start(DemoServer.builder().limit(10).window(Duration.ofMinutes(1)).routeCost("/api/export", 5));
    assertThat(get(server, "/api/export/1").statusCode()).isEqualTo(200);
    assertThat(get(server, "/api/export/2").statusCode()).isEqualTo(200);
    HttpResponse<String> third = get(server, "/api/export/3");
    assertThat(third.statusCode()).isEqualTo(429);
    assertThat(get(server, "/api/cheap").statusCode()).isEqualTo(429); // the bucket is empty
  }

  @Test
  void dryRunCountsButNeverRejects() throws Exception {
    DemoServer server = start(DemoServer.builder().limit(1).window(Duration.ofMinutes(1)).dryRun(true));
    for (int i = 0; i < 4; i++) {
      assertThat(get(server, "/api/a").statusCode()).isEqualTo(200);
    }
    assertThat(server.stats().rejected()).isEqualTo(3);
    assertThat(stats(server).get("dryRun").asBoolean()).isTrue();
  }

  @Test
  void leakyQueueDelaysAdmittedRequestsAndRejectsWhenFull() throws Exception {
    DemoServer server = start(DemoServer.builder().algorithm(Algorithm.LEAKY_QUEUE)
        .limit(20).window(Duration.ofSeconds(1)).burst(3));
    for (int i = 0; i < 3; i++) {
      assertThat(get(server, "/api/q").statusCode()).isEqualTo(200); // served after 0, 50, 100 ms
    }
    assertThat(get(server, "/api/q").statusCode()).isEqualTo(429); // the fake clock stood still
  }

  @Test
  void concurrencyLimitPerKey() throws Exception {
    DemoServer server = start(DemoServer.builder().limit(100).window(Duration.ofSeconds(1))
        .concurrency(1).latency(Duration.ofMillis(400)));
    List<HttpResponse<String>> secondThenFirst = aSecondCallWhileTheFirstIsInFlight(server);
    HttpResponse<String> second = secondThenFirst.get(0);
    assertThat(second.statusCode()).isEqualTo(429);
    assertThat(second.body()).contains("concurrency");
    assertThat(second.headers().firstValue("Retry-After")).hasValue("1");
    assertThat(secondThenFirst.get(1).statusCode()).isEqualTo(200);
    assertThat(get(server, "/api/slow").statusCode()).isEqualTo(200); // the place was given back
  }

  /** The answer to a second call sent while a slow first one is in flight, then the first's. */
  private List<HttpResponse<String>> aSecondCallWhileTheFirstIsInFlight(DemoServer server) throws Exception {
    CompletableFuture<HttpResponse<String>> first = http.sendAsync(
        HttpRequest.newBuilder(server.url().resolve("/api/slow")).build(), HttpResponse.BodyHandlers.ofString());
    long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
    while (server.stats().admitted() < 1 && System.nanoTime() < deadline) {
      Thread.onSpinWait();
    }
    HttpResponse<String> second = get(server, "/api/slow");
    return List.of(second, first.get());
  }

  @Test
  void everyHeaderStyle() throws Exception {
    DemoServer legacy = start(DemoServer.builder().limit(1).window(Duration.ofSeconds(30)).headers(HeaderStyle.LEGACY));
    get(legacy, "/api/a");
    HttpResponse<String> l = get(legacy, "/api/a");
    assertThat(l.statusCode()).isEqualTo(429);
    assertThat(l.headers().firstValue("RateLimit-Limit")).hasValue("1");
    assertThat(l.headers().firstValue("RateLimit-Remaining")).hasValue("0");
    assertThat(l.headers().firstValue("RateLimit-Reset")).hasValue("30");
    assertThat(l.headers().firstValue("Retry-After")).hasValue("30");

    DemoServer github = start(DemoServer.builder().limit(1).window(Duration.ofSeconds(30)).headers(HeaderStyle.X_RATELIMIT));
    HttpResponse<String> g = get(github, "/api/a");
    assertThat(g.headers().firstValue("x-ratelimit-limit")).hasValue("1");
    assertThat(g.headers().firstValue("x-ratelimit-used")).hasValue("1");
    long epoch = clock.instant().getEpochSecond();
    assertThat(g.headers().firstValue("x-ratelimit-reset")).hasValue(Long.toString(epoch + 30));

    DemoServer retryAfter = start(DemoServer.builder().limit(1).window(Duration.ofSeconds(30)).headers(HeaderStyle.RETRY_AFTER));
    HttpResponse<String> r1 = get(retryAfter, "/api/a");
    HttpResponse<String> r2 = get(retryAfter, "/api/a");
    assertThat(r1.headers().map().keySet()).noneMatch(h -> h.toLowerCase().contains("ratelimit"));
    assertThat(r2.statusCode()).isEqualTo(429);
    assertThat(r2.headers().firstValue("Retry-After")).hasValue("30");

    DemoServer none = start(DemoServer.builder().limit(1).window(Duration.ofSeconds(30)).headers(HeaderStyle.NONE));
    get(none, "/api/a");
    HttpResponse<String> n = get(none, "/api/a");
    assertThat(n.statusCode()).isEqualTo(429);
    assertThat(n.headers().map().keySet()).as("a bare 429")
        .noneMatch(h -> h.toLowerCase().contains("ratelimit") || h.toLowerCase().startsWith("retry-after"));
  }

  @Test
  void retryAfterInMillisecondsBesideSeconds() throws Exception {
    DemoServer server = start(DemoServer.builder().limit(2).window(Duration.ofSeconds(3)).headers(HeaderStyle.RETRY_AFTER_MS));
    get(server, "/api/a");
    HttpResponse<String> ok = get(server, "/api/a");
    assertThat(ok.headers().firstValue("retry-after-ms")).isEmpty();
    HttpResponse<String> limited = get(server, "/api/a");
    assertThat(limited.statusCode()).isEqualTo(429);
    assertThat(limited.headers().firstValue("retry-after-ms")).hasValue("1500"); // 2 per 3 s: one back in 1.5 s
    assertThat(limited.headers().firstValue("Retry-After")).hasValue("2");
  }

  @Test
  void anHttpDateRetryAfterAndTheDateComeFromTheSameSkewedClock() throws Exception {
    DemoServer server = start(DemoServer.builder().limit(1).window(Duration.ofSeconds(30))
        .headers(HeaderStyle.RETRY_AFTER_DATE).clockSkew(Duration.ofSeconds(60)));
    HttpResponse<String> ok = get(server, "/api/a");
    assertThat(ok.headers().allValues("Date")).as("ours, from the configured clock").containsExactly("Thu, 01 Jan 2026 00:01:00 GMT");
    HttpResponse<String> limited = get(server, "/api/a");
    assertThat(limited.statusCode()).isEqualTo(429);
    assertThat(limited.headers().allValues("Date")).containsExactly("Thu, 01 Jan 2026 00:01:00 GMT");
    // the token comes back at 00:00:30.250 on the server's clock, 00:01:30.250 as it states it
    assertThat(limited.headers().firstValue("Retry-After")).hasValue("Thu, 01 Jan 2026 00:01:31 GMT");
    assertThat(stats(server).get("clockSkewMillis").asLong()).isEqualTo(60_000);
  }

  @Test
  void aSkewedClockMovesTheEpochResetAndItsDateTogether() throws Exception {
    DemoServer server = start(DemoServer.builder().limit(1).window(Duration.ofSeconds(30))
        .headers(HeaderStyle.X_RATELIMIT).clockSkew(Duration.ofSeconds(-30)));
    HttpResponse<String> ok = get(server, "/api/a");
    long stated = clock.instant().getEpochSecond() - 30;
    assertThat(ok.headers().firstValue("x-ratelimit-reset")).hasValue(Long.toString(stated + 30));
    assertThat(ok.headers().allValues("Date")).containsExactly("Wed, 31 Dec 2025 23:59:30 GMT");
  }

  @Test
  void usedLimitOnEveryAnswerAndRetryAfterOnA429() throws Exception {
    DemoServer server = start(DemoServer.builder().limit(2).window(Duration.ofSeconds(1)).burst(3)
        .headers(HeaderStyle.USED_LIMIT));
    for (int i = 1; i <= 3; i++) {
      HttpResponse<String> ok = get(server, "/api/a");
      assertThat(ok.statusCode()).isEqualTo(200);
      assertThat(ok.headers().firstValue("X-Shopify-Shop-Api-Call-Limit")).hasValue(i + "/3");
      assertThat(ok.headers().firstValue("Retry-After")).isEmpty();
    }
    HttpResponse<String> limited = get(server, "/api/a");
    assertThat(limited.statusCode()).isEqualTo(429);
    assertThat(limited.headers().firstValue("X-Shopify-Shop-Api-Call-Limit")).hasValue("3/3");
    assertThat(limited.headers().firstValue("Retry-After")).hasValue("1");
  }

  @Test
  void theConcurrencyLimitAnswersInTheStylesShapeToo() throws Exception {
    DemoServer server = start(DemoServer.builder().limit(100).window(Duration.ofSeconds(1))
        .concurrency(1).latency(Duration.ofMillis(400)).headers(HeaderStyle.RETRY_AFTER_MS));
    List<HttpResponse<String>> secondThenFirst = aSecondCallWhileTheFirstIsInFlight(server);
    assertThat(secondThenFirst.get(0).statusCode()).isEqualTo(429);
    assertThat(secondThenFirst.get(0).headers().firstValue("retry-after-ms")).hasValue("1000");
    assertThat(secondThenFirst.get(1).statusCode()).isEqualTo(200);
  }

  /** An LLM gateway's concurrency limit: a bare 429, no Retry-After, no headers at all. */
  @Test
  void theConcurrencyLimitUnderNoHeadersIsABare429() throws Exception {
    DemoServer server = start(DemoServer.builder().limit(100).window(Duration.ofSeconds(1))
        .concurrency(1).latency(Duration.ofMillis(400)).headers(HeaderStyle.NONE));
    List<HttpResponse<String>> secondThenFirst = aSecondCallWhileTheFirstIsInFlight(server);
    HttpResponse<String> capped = secondThenFirst.get(0);
    assertThat(capped.statusCode()).isEqualTo(429);
    assertThat(capped.body()).contains("\"limit\":\"concurrency\"");
    assertThat(capped.headers().map().keySet()).as("nothing that says when, or how much")
        .noneMatch(name -> name.equalsIgnoreCase("retry-after") || name.toLowerCase().contains("ratelimit"));
    assertThat(secondThenFirst.get(1).statusCode()).isEqualTo(200);
  }

  /**
   * GitHub's two refusals: its rate limit is a 403 saying {@code x-ratelimit-remaining: 0}; its
   * secondary limit (the concurrency cap) a 403 with {@code retry-after} and the remaining as it is.
   * 2 per 20 s is a token every 10 s, on a clock that stands still.
   */
  @Test
  void aRejectStatusOf403AnswersAsGitHubDoes() throws Exception {
    DemoServer server = start(DemoServer.builder().limit(2).window(Duration.ofSeconds(20))
        .headers(HeaderStyle.X_RATELIMIT).rejectStatus(403).concurrency(1).latency(Duration.ofMillis(400)));
    String reset = Long.toString(clock.instant().getEpochSecond() + 10);
    List<HttpResponse<String>> secondThenFirst = aSecondCallWhileTheFirstIsInFlight(server);
    HttpResponse<String> secondary = secondThenFirst.get(0);
    assertThat(secondary.statusCode()).isEqualTo(403);
    assertThat(secondary.body()).contains("\"status\":403", "\"limit\":\"concurrency\"");
    assertThat(secondary.headers().firstValue("retry-after")).hasValue("1");
    assertThat(secondary.headers().firstValue("x-ratelimit-remaining")).as("what the limiter has left").hasValue("1");
    assertThat(secondary.headers().firstValue("x-ratelimit-limit")).hasValue("2");
    assertThat(secondary.headers().firstValue("x-ratelimit-used")).hasValue("1");
    assertThat(secondary.headers().firstValue("x-ratelimit-reset")).hasValue(reset);
    assertThat(secondThenFirst.get(1).statusCode()).isEqualTo(200);

    HttpResponse<String> last = get(server, "/api/slow");
    assertThat(last.statusCode()).isEqualTo(200);
    assertThat(last.headers().firstValue("x-ratelimit-remaining")).hasValue("0");
    HttpResponse<String> primary = get(server, "/api/slow");
    assertThat(primary.statusCode()).isEqualTo(403);
    assertThat(primary.body()).contains("\"status\":403", "\"limit\":\"rate\"");
    assertThat(primary.headers().firstValue("x-ratelimit-remaining")).hasValue("0");
    assertThat(primary.headers().firstValue("x-ratelimit-reset")).hasValue(reset);
    assertThat(primary.headers().firstValue("retry-after")).hasValue("10");
    JsonNode stats = stats(server);
    assertThat(stats.get("rejected").asLong()).as("both 403s are refusals").isEqualTo(2);
    assertThat(stats.get("admitted").asLong()).isEqualTo(2);
    assertThat(stats.get("rejectStatus").asInt()).isEqualTo(403);
  }

  /**
   * Every 2nd (or 3rd) answer, admitted or refused, on whichever key, says its reset is 200 days
   * (17,280,000 s) away in the style's shape; every other header, and every other answer, stays
   * true. 2 per 20 s is a token every 10 s, on a clock that stands still.
   */
  @Test
  void everyNthAnswerStatesAResetTwoHundredDaysAheadAndNothingElseWrong() throws Exception {
    long epoch = clock.instant().getEpochSecond();
    DemoServer github = start(DemoServer.builder().limit(2).window(Duration.ofSeconds(20))
        .headers(HeaderStyle.X_RATELIMIT).wrongResetEvery(2));
    List<HttpResponse<String>> g = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      g.add(get(github, "/api/a"));
    }
    assertThat(g).extracting(HttpResponse::statusCode).containsExactly(200, 200, 429, 429);
    assertThat(g).extracting(r -> r.headers().firstValue("x-ratelimit-reset").orElseThrow())
        .containsExactly(Long.toString(epoch + 10), Long.toString(epoch + 17_280_000),
            Long.toString(epoch + 10), Long.toString(epoch + 17_280_000));
    assertThat(g).extracting(r -> r.headers().firstValue("x-ratelimit-remaining").orElseThrow())
        .containsExactly("1", "0", "0", "0");
    assertThat(g).extracting(r -> r.headers().firstValue("Retry-After").orElse("none"))
        .as("a wrong reset leaves Retry-After true").containsExactly("none", "none", "10", "10");
    assertThat(stats(github).get("wrongResetEvery").asInt()).isEqualTo(2);

    DemoServer ietf = start(DemoServer.builder().limit(2).window(Duration.ofSeconds(20)).wrongResetEvery(3));
    HttpResponse<String> i1 = get(ietf, "/api/a", "X-Api-Key", "alice");
    HttpResponse<String> i2 = get(ietf, "/api/a", "X-Api-Key", "bob");
    HttpResponse<String> i3 = get(ietf, "/api/a", "X-Api-Key", "alice");
    assertThat(i1.headers().firstValue("RateLimit")).hasValue("\"default\";r=1;t=10");
    assertThat(i2.headers().firstValue("RateLimit")).hasValue("\"default\";r=1;t=10");
    assertThat(i3.headers().firstValue("RateLimit")).as("the server's 3rd answer, alice's 2nd")
        .hasValue("\"default\";r=0;t=17280000");
    assertThat(i3.headers().firstValue("RateLimit-Policy")).hasValue("\"default\";q=2;w=20");

    DemoServer legacy = start(DemoServer.builder().limit(2).window(Duration.ofSeconds(20))
        .headers(HeaderStyle.LEGACY).wrongResetEvery(2));
    assertThat(get(legacy, "/api/a").headers().firstValue("RateLimit-Reset")).hasValue("10");
    HttpResponse<String> l2 = get(legacy, "/api/a");
    assertThat(l2.statusCode()).isEqualTo(200);
    assertThat(l2.headers().firstValue("RateLimit-Reset")).hasValue("17280000");
    assertThat(l2.headers().firstValue("RateLimit-Remaining")).hasValue("0");
    assertThat(l2.headers().firstValue("RateLimit-Limit")).hasValue("2");

    DemoServer noReset = start(DemoServer.builder().limit(1).window(Duration.ofSeconds(20))
        .headers(HeaderStyle.RETRY_AFTER).wrongResetEvery(2));
    get(noReset, "/api/a");
    HttpResponse<String> n2 = get(noReset, "/api/a");
    assertThat(n2.statusCode()).isEqualTo(429);
    assertThat(n2.headers().firstValue("Retry-After")).as("no reset to be wrong").hasValue("20");
  }

  @Test
  void everyAlgorithmAnswersOverHttp() throws Exception {
    for (Algorithm algorithm : Algorithm.values()) {
      DemoServer server = start(DemoServer.builder().algorithm(algorithm).limit(2).window(Duration.ofMillis(200)));
      int ok = 0;
      int limited = 0;
      for (int i = 0; i < 4; i++) {
        int status = get(server, "/api/a").statusCode();
        ok += status == 200 ? 1 : 0;
        limited += status == 429 ? 1 : 0;
      }
      assertThat(ok).as(algorithm.cliName()).isEqualTo(2);
      assertThat(limited).as(algorithm.cliName()).isEqualTo(2);
      URI url = server.url();
      assertThat(url.toString()).isEqualTo("http://127.0.0.1:" + server.port());
    }
  }
}
