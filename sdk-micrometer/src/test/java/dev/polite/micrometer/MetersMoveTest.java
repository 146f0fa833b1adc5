package dev.polite.micrometer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.polite.RateController;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.distribution.DistributionStatisticConfig;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import okhttp3.OkHttpClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Each meter moves when polite does what it measures: real OkHttp calls through a real
 * PoliteInterceptor to a MockWebServer, on a fake clock.
 */
class MetersMoveTest {
  private final Polite h = new Polite();
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final PoliteMetrics metrics = PoliteMetrics.create();

  MetersMoveTest() throws java.io.IOException {
    metrics.bindTo(registry);
  }

  @AfterEach
  void close() {
    h.close();
  }

  @Test
  void theWaitTimerHearsEveryAttemptAndHowLongItWaited() throws Exception {
    for (int i = 0; i < 3; i++) {
      h.enqueue(200);
    }
    OkHttpClient client = h.client(h.builder().startingRate(1).addListener(metrics));

    for (int i = 0; i < 3; i++) {
      assertThat(h.call(client, "/a")).isEqualTo(200);
    }

    // One per second: the first goes at once, the next two wait a second each.
    Timer wait = registry.get("polite.calls.wait").tag("key", h.key()).timer();
    assertThat(wait.count()).isEqualTo(3);
    assertThat(wait.totalTime(TimeUnit.SECONDS)).isCloseTo(2.0, within(1e-6));
    assertThat(wait.max(TimeUnit.SECONDS)).isCloseTo(1.0, within(1e-6));
  }

  @Test
  void aRejectionRetriedCountsARejectionAndARetryAndNoGiveUp() throws Exception {
    h.enqueue(429, "Retry-After", "1");
    h.enqueue(200);
    OkHttpClient client = h.client(h.builder().rateController(RateController.none())
        .addListener(metrics));

    assertThat(h.call(client, "/a")).isEqualTo(200);

    assertThat(count("polite.calls.rejected")).isEqualTo(1);
    assertThat(count("polite.calls.retries")).isEqualTo(1);
    assertThat(registry.get("polite.calls.wait").tag("key", h.key()).timer().count())
        .as("two attempts sent").isEqualTo(2);
    assertThat(registry.get("polite.calls.gave.up").tag("key", h.key()).counters())
        .hasSize(4).allSatisfy(c -> assertThat(c.count()).isZero());
  }

  @Test
  void aRejectionWithNoRetryLeftIsAGiveUpForAttemptsExhausted() throws Exception {
    h.enqueue(429, "Retry-After", "1");
    OkHttpClient client = h.client(h.builder().maxRateLimitRetries(0).addListener(metrics));

    assertThat(h.call(client, "/a")).isEqualTo(429);

    assertThat(gaveUp("attempts_exhausted")).isEqualTo(1);
    assertThat(gaveUp("wait_too_long")).isZero();
    assertThat(count("polite.calls.rejected")).isEqualTo(1);
    assertThat(count("polite.calls.retries")).isZero();
  }

  @Test
  void aRetryAfterPastTheMaxWaitIsAGiveUpForWaitTooLong() throws Exception {
    h.enqueue(429, "Retry-After", "86400");
    OkHttpClient client = h.client(h.builder().maxWait(Duration.ofSeconds(10))
        .addListener(metrics));

    assertThat(h.call(client, "/a")).isEqualTo(429);

    assertThat(gaveUp("wait_too_long")).isEqualTo(1);
    assertThat(gaveUp("attempts_exhausted")).isZero();
    assertThat(registry.get("polite.calls.gave.up").tag("key", h.key()).counters())
        .extracting(c -> c.getId().getTag("reason"))
        .as("every reason is there from the start, at zero until it happens")
        .containsExactlyInAnyOrder("wait_too_long", "attempts_exhausted", "budget_exhausted",
            "server_said_no");
  }

  @Test
  void thePaceGaugeIsNaNWhileUnpacedThenTheAdvertisedPace() throws Exception {
    h.enqueue(200);
    h.enqueue(200, "RateLimit-Policy", "\"default\";q=10;w=1", "RateLimit", "\"default\";r=9;t=1");
    OkHttpClient client = h.client(h.builder().addListener(metrics));

    h.call(client, "/a");
    assertThat(gauge("polite.key.pace")).as("unpaced").isNaN();
    assertThat(gauge("polite.key.tokens")).as("unpaced").isNaN();

    h.call(client, "/b");
    assertThat(gauge("polite.key.pace")).isEqualTo(10.0);
    assertThat(gauge("polite.key.tokens")).as("the server's remaining count")
        .isCloseTo(9.0, within(1e-6));
    assertThat(gauge("polite.key.in.flight")).isZero();
  }

  @Test
  void thePauseGaugeShowsTheSecondsLeftWhilePaused() throws Exception {
    h.enqueue(429, "Retry-After", "30");
    OkHttpClient client = h.client(h.builder().maxAttempts(1).maxRateLimitRetries(0)
        .addListener(metrics));

    assertThat(h.call(client, "/a")).isEqualTo(429);

    assertThat(registry.get("polite.key.pause").tag("key", h.key()).timeGauge()
        .value(TimeUnit.SECONDS)).isCloseTo(30.0, within(1e-6));
    h.clock.advance(Duration.ofSeconds(12));
    assertThat(gauge("polite.key.pause")).as("in the registry's base unit, seconds")
        .isCloseTo(18.0, within(1e-6));
    h.clock.advance(Duration.ofSeconds(20));
    assertThat(gauge("polite.key.pause")).isZero();
  }

  @Test
  void everyMeterIsDescribedAndTaggedWithItsKey() throws Exception {
    h.enqueue(200);
    h.call(h.client(h.builder().addListener(metrics)), "/a");

    assertThat(registry.getMeters()).extracting(m -> m.getId().getName())
        .containsOnly("polite.calls.wait", "polite.calls.rejected", "polite.calls.retries",
            "polite.calls.gave.up", "polite.key.pace", "polite.key.pause", "polite.key.tokens",
            "polite.key.in.flight");
    for (Meter meter : registry.getMeters()) {
      assertThat(meter.getId().getDescription()).as(meter.getId().getName()).isNotBlank();
      assertThat(meter.getId().getTag("key")).as(meter.getId().getName())
          .isIn(h.key(), PoliteMetrics.OTHER);
    }
    assertThat(registry.get("polite.calls.wait").timer().getId().getBaseUnit())
        .isEqualTo("seconds");
  }

  @Test
  void theReadmesHistogramFilterReachesTheWaitTimer() throws Exception {
    // SimpleMeterRegistry publishes no histogram buckets (Prometheus does): what is checked here
    // is that the README's filter, word for word, is asked about polite's timer, at binding.
    SimpleMeterRegistry filtered = new SimpleMeterRegistry();
    List<String> histograms = new CopyOnWriteArrayList<>();
    filtered.config().meterFilter(new MeterFilter() {
      @Override
      public DistributionStatisticConfig configure(Meter.Id id, DistributionStatisticConfig config) {
        return id.getName().equals("polite.calls.wait")
            ? DistributionStatisticConfig.builder().percentilesHistogram(true).build().merge(config)
            : config;
      }
    }).meterFilter(new MeterFilter() {
      @Override
      public DistributionStatisticConfig configure(Meter.Id id, DistributionStatisticConfig config) {
        if (Boolean.TRUE.equals(config.isPercentileHistogram())) {
          histograms.add(id.getName() + " " + id.getTag("key"));
        }
        return config;
      }
    });
    PoliteMetrics histogram = PoliteMetrics.create();
    histogram.bindTo(filtered);
    h.enqueue(200);

    h.call(h.client(h.builder().addListener(histogram)), "/a");

    assertThat(histograms).containsExactlyInAnyOrder("polite.calls.wait other",
        "polite.calls.wait " + h.key());
    assertThat(filtered.get("polite.calls.wait").tag("key", h.key()).timer().count()).isOne();
  }

  private double count(String name) {
    return registry.get(name).tag("key", h.key()).counter().count();
  }

  private double gaveUp(String reason) {
    return registry.get("polite.calls.gave.up").tag("key", h.key()).tag("reason", reason)
        .counter().count();
  }

  private double gauge(String name) {
    return registry.get(name).tag("key", h.key()).gauge().value();
  }
}
