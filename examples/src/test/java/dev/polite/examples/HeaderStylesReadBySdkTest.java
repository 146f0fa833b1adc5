package dev.polite.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.polite.RateLimitHeaders;
import dev.polite.RateLimitPolicy;
import dev.polite.RateLimitSignals;
import dev.polite.demo.DemoServer;
import dev.polite.demo.DemoServerConfig;
import dev.polite.demo.HeaderStyle;
import dev.polite.demo.SecondPolicy;
import dev.polite.okhttp.OkHttpResponseView;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What the sdk reads from each demo-server header style, end to end over HTTP: the zoo runs
 * clients against these shapes, so the sdk's reading of each is checked here, where both meet.
 * The server's clock is fixed far from ours (so a reading against our clock, not the answer's
 * {@code Date}, would be off by months), and every server allows 2 per 3 s from a bucket of 3.
 */
class HeaderStylesReadBySdkTest {
  private static final Clock FIXED = Clock.fixed(Instant.parse("2026-01-01T00:00:00.250Z"), ZoneOffset.UTC);
  private final OkHttpClient http = new OkHttpClient();
  private final List<DemoServer> servers = new ArrayList<>();

  @AfterEach
  void stop() {
    servers.forEach(DemoServer::close);
  }

  /** The signals of the first answer and of the 429 that follows three admitted calls. */
  private List<RateLimitSignals> firstAndRejected(DemoServerConfig.Builder config) throws IOException {
    DemoServer server = config.limit(2).window(Duration.ofSeconds(3)).burst(3).clock(FIXED).start();
    servers.add(server);
    Request request = new Request.Builder().url(server.url() + "/api/x").build();
    List<RateLimitSignals> signals = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      try (Response response = http.newCall(request).execute()) {
        assertThat(response.code()).isEqualTo(i < 3 ? 200 : 429);
        if (i == 0 || i == 3) {
          signals.add(RateLimitHeaders.standard().parse(OkHttpResponseView.of(response)));
        }
      }
    }
    return signals;
  }

  @Test
  void retryAfterMillisecondsAreReadToTheMillisecond() throws IOException {
    RateLimitSignals rejected = firstAndRejected(DemoServer.builder().headers(HeaderStyle.RETRY_AFTER_MS)).get(1);
    assertThat(rejected.isRejection()).isTrue();
    assertThat(rejected.retryAfter()).as("retry-after-ms: 1500 beats Retry-After: 2").isEqualTo(Duration.ofMillis(1500));
  }

  @Test
  void anHttpDateFromASkewedServerIsMeasuredAgainstItsDate() throws IOException {
    for (long skew : new long[] {60, -30, 0}) {
      RateLimitSignals rejected = firstAndRejected(DemoServer.builder().headers(HeaderStyle.RETRY_AFTER_DATE)
          .clockSkew(Duration.ofSeconds(skew))).get(1);
      // admitted 1.5 s after 00:00:00.250, so the date is 00:00:02 (skewed), Date 00:00:00 (skewed)
      assertThat(rejected.retryAfter()).as("skew %d s", skew).isEqualTo(Duration.ofSeconds(2));
    }
  }

  @Test
  void anEpochResetFromASkewedServerIsMeasuredAgainstItsDate() throws IOException {
    RateLimitSignals rejected = firstAndRejected(DemoServer.builder().headers(HeaderStyle.X_RATELIMIT)
        .clockSkew(Duration.ofSeconds(3600))).get(1);
    assertThat(rejected.limit()).hasValue(2);
    assertThat(rejected.remaining()).hasValue(0);
    // t = 2 s (1.5 s rounded up) after 01:00:00.250, as epoch seconds: 01:00:02, Date 01:00:00
    assertThat(rejected.reset()).isEqualTo(Duration.ofSeconds(2));
  }

  @Test
  void xsDialectGivesTheLimitWhatRemainsAndTheEpochResetReadAgainstItsDate() throws IOException {
    List<RateLimitSignals> signals = firstAndRejected(DemoServer.builder().headers(HeaderStyle.X_RATE_LIMIT)
        .clockSkew(Duration.ofSeconds(3600)));
    assertThat(signals.get(0).limit()).hasValue(2);
    assertThat(signals.get(0).remaining()).hasValue(2);
    assertThat(signals.get(1).remaining()).hasValue(0);
    assertThat(signals.get(1).reset()).isEqualTo(Duration.ofSeconds(2));
    assertThat(signals.get(1).policyName()).as("X names no budget").isNull();
  }

  @Test
  void azureGivesWhatRemainsAndNothingElse() throws IOException {
    List<RateLimitSignals> signals = firstAndRejected(DemoServer.builder().headers(HeaderStyle.AZURE));
    assertThat(signals.get(0).remaining()).hasValue(2);
    assertThat(signals.get(0).limit()).isEmpty();
    assertThat(signals.get(0).reset()).isNull();
    assertThat(signals.get(1).remaining()).hasValue(0);
    assertThat(signals.get(1).retryAfter()).isEqualTo(Duration.ofSeconds(2));
  }

  @Test
  void twoPoliciesInOneFieldAreEachRead() throws IOException {
    List<RateLimitSignals> signals = firstAndRejected(DemoServer.builder()
        .secondPolicy(new SecondPolicy("window", 5, Duration.ofSeconds(10))));
    assertThat(signals.get(0).policies()).extracting(RateLimitPolicy::name).containsExactly("default", "window");
    RateLimitPolicy window = signals.get(0).policies().get(1);
    assertThat(window.quota()).hasValue(5);
    assertThat(window.window()).isEqualTo(Duration.ofSeconds(10));
    assertThat(window.remaining()).hasValue(4);
    assertThat(signals.get(1).policies().get(0).remaining()).as("the bucket refused the 4th").hasValue(0);
    assertThat(signals.get(1).policies().get(1).remaining()).hasValue(2);
  }

  @Test
  void usedLimitGivesTheLimitAndWhatRemains() throws IOException {
    List<RateLimitSignals> signals = firstAndRejected(DemoServer.builder().headers(HeaderStyle.USED_LIMIT));
    assertThat(signals.get(0).limit()).hasValue(3);
    assertThat(signals.get(0).remaining()).hasValue(2);
    assertThat(signals.get(1).limit()).hasValue(3);
    assertThat(signals.get(1).remaining()).hasValue(0);
    assertThat(signals.get(1).retryAfter()).isEqualTo(Duration.ofSeconds(2));
  }

  @Test
  void retryAfterSecondsAndTheBare429() throws IOException {
    RateLimitSignals seconds = firstAndRejected(DemoServer.builder().headers(HeaderStyle.RETRY_AFTER)).get(1);
    assertThat(seconds.retryAfter()).isEqualTo(Duration.ofSeconds(2));
    assertThat(seconds.limit()).isEmpty();

    List<RateLimitSignals> none = firstAndRejected(DemoServer.builder().headers(HeaderStyle.NONE));
    assertThat(none.get(0).isEmpty()).isTrue();
    assertThat(none.get(1).isRejection()).isTrue();
    assertThat(none.get(1).retryAfter()).isNull();
  }
}
