package dev.polite.micrometer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.polite.CallContext;
import dev.polite.GiveUpReason;
import dev.polite.HeaderLines;
import dev.polite.KeySnapshot;
import dev.polite.RateLimitSignals;
import dev.polite.RequestView;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import okhttp3.OkHttpClient;
import org.junit.jupiter.api.Test;

/** What happens before binding, with several registries, and what the builder refuses. */
class BindingTest {
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

  @Test
  void eventsBeforeBindingAreNotCountedButKeysAddedBeforeItGetTheirGauges() throws Exception {
    PoliteMetrics metrics = PoliteMetrics.create();
    try (Polite h = new Polite()) {
      h.enqueue(200, "RateLimit-Policy", "\"default\";q=10;w=1", "RateLimit", "\"default\";r=9;t=1");
      h.enqueue(200);
      OkHttpClient client = h.client(h.builder().addListener(metrics));

      h.call(client, "/a");
      metrics.bindTo(registry);

      assertThat(registry.get("polite.key.pace").tag("key", h.key()).gauge().value())
          .isEqualTo(10.0);
      assertThat(registry.get("polite.calls.wait").tag("key", h.key()).timer().count()).isZero();

      h.call(client, "/b");
      assertThat(registry.get("polite.calls.wait").tag("key", h.key()).timer().count()).isOne();
    }
  }

  @Test
  void everyBoundRegistryHearsEveryEventAndBindingTwiceIsOnce() {
    PoliteMetrics metrics = PoliteMetrics.create();
    SimpleMeterRegistry second = new SimpleMeterRegistry();
    metrics.bindTo(registry);
    metrics.bindTo(second);
    metrics.bindTo(registry);
    metrics.keyAdded("k", () -> snapshot("k", 5));

    metrics.rateLimited(call("k"), RateLimitSignals.none());
    metrics.gaveUp(call("k"), GiveUpReason.SERVER_SAID_NO, Duration.ZERO);

    for (MeterRegistry r : new MeterRegistry[] {registry, second}) {
      assertThat(r.get("polite.calls.rejected").tag("key", "k").counter().count()).isOne();
      assertThat(r.get("polite.calls.gave.up").tag("key", "k").tag("reason", "server_said_no")
          .counter().count()).isOne();
      assertThat(r.get("polite.key.pace").tag("key", "k").gauge().value()).isEqualTo(5.0);
    }

    metrics.keyForgotten("k");
    assertThat(registry.find("polite.key.pace").gauges()).isEmpty();
    assertThat(second.find("polite.key.pace").gauges()).isEmpty();
  }

  @Test
  void theGaugesReadTheLatestStateAndHoldItStrongly() {
    PoliteMetrics metrics = PoliteMetrics.create();
    metrics.bindTo(registry);
    AtomicReference<KeySnapshot> now = new AtomicReference<>(snapshot("k", Double.POSITIVE_INFINITY));
    metrics.keyAdded("k", now::get);
    System.gc(); // Micrometer holds a gauge's object weakly; PoliteMetrics must hold it

    assertThat(registry.get("polite.key.pace").gauge().value()).as("unpaced").isNaN();
    now.set(snapshot("k", 2.5));
    assertThat(registry.get("polite.key.pace").gauge().value()).isEqualTo(2.5);
  }

  @Test
  void aKeyAddedAgainBeforeItsForgettingArrivesKeepsItsMeters() {
    // polite forgets an idle key, and another thread's call brings it back before the
    // forgetting reaches the listeners: added, added again, then forgotten once.
    PoliteMetrics metrics = PoliteMetrics.builder().maxKeyTags(1).build();
    metrics.bindTo(registry);
    metrics.keyAdded("k", () -> snapshot("k", 1));
    metrics.keyAdded("k", () -> snapshot("k", 2));
    metrics.keyForgotten("k");

    assertThat(registry.get("polite.key.pace").tag("key", "k").gauge().value())
        .as("the live state's").isEqualTo(2.0);
    metrics.rateLimited(call("k"), RateLimitSignals.none());
    assertThat(registry.get("polite.calls.rejected").tag("key", "k").counter().count()).isOne();

    metrics.keyForgotten("k");
    assertThat(registry.find("polite.calls.rejected").tag("key", "k").counters()).isEmpty();
    metrics.keyAdded("j", () -> snapshot("j", 3));
    assertThat(registry.get("polite.key.pace").tag("key", "j").gauge().value())
        .as("the one place, freed").isEqualTo(3.0);
  }

  @Test
  void aKeyNamedOtherIsCountedWithTheOthers() {
    PoliteMetrics metrics = PoliteMetrics.create();
    metrics.bindTo(registry);
    metrics.keyAdded(PoliteMetrics.OTHER, () -> snapshot(PoliteMetrics.OTHER, 1));
    metrics.rateLimited(call(PoliteMetrics.OTHER), RateLimitSignals.none());
    metrics.keyForgotten(PoliteMetrics.OTHER);

    assertThat(registry.get("polite.calls.rejected").tag("key", PoliteMetrics.OTHER).counter()
        .count()).as("the shared meters outlive it").isOne();
    assertThat(registry.find("polite.key.pace").gauges()).isEmpty();
  }

  @Test
  void extraTagsGoOnEveryMeterAndTheModulesOwnAreRefused() {
    PoliteMetrics metrics = PoliteMetrics.builder().tags("client", "github").build();
    metrics.bindTo(registry);
    metrics.keyAdded("k", () -> snapshot("k", 1));

    assertThat(registry.getMeters()).isNotEmpty()
        .allSatisfy(m -> assertThat(m.getId().getTag("client")).isEqualTo("github"));
    assertThatThrownBy(() -> PoliteMetrics.builder().tags(Tags.of("key", "x")))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'key'");
    assertThatThrownBy(() -> PoliteMetrics.builder().tags("reason", "x"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> PoliteMetrics.builder().maxKeyTags(-1))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aFilterThatDropsTheKeyTagDoesNotLetOneForgottenKeyRemoveEveryKeysCounters() {
    registry.config().meterFilter(MeterFilter.ignoreTags("key"));
    PoliteMetrics metrics = PoliteMetrics.create();
    metrics.bindTo(registry);
    metrics.keyAdded("a", () -> snapshot("a", 1));
    metrics.keyAdded("b", () -> snapshot("b", 1));

    metrics.keyForgotten("a");
    metrics.rateLimited(call("b"), RateLimitSignals.none());

    assertThat(registry.get("polite.calls.rejected").counter().count()).isOne();
  }

  @Test
  void eventsOnManyThreadsWhileKeysComeAndGoAreAllCounted() throws Exception {
    PoliteMetrics metrics = PoliteMetrics.builder().maxKeyTags(8).build();
    metrics.bindTo(registry);
    String[] stable = {"s0", "s1", "s2", "s3"};
    for (String key : stable) {
      metrics.keyAdded(key, () -> snapshot(key, 1));
    }
    int threads = 4;
    int events = 5_000;
    ExecutorService pool = Executors.newFixedThreadPool(threads + 1);
    try {
      List<Future<?>> done = new ArrayList<>();
      AtomicBoolean stop = new AtomicBoolean();
      Future<?> churn = pool.submit(() -> {
        for (int i = 0; i < 2_000 && !stop.get(); i++) { // keys taking and freeing four places
          String key = "churn-" + (i % 16);
          metrics.keyAdded(key, () -> snapshot(key, 1));
          metrics.keyForgotten("churn-" + ((i + 8) % 16));
        }
      });
      for (int t = 0; t < threads; t++) {
        done.add(pool.submit(() -> {
          for (int i = 0; i < events; i++) {
            CallContext call = call(stable[i % stable.length]);
            metrics.sending(call, Duration.ofMillis(i % 3));
            metrics.rateLimited(call, RateLimitSignals.none());
          }
        }));
      }
      for (Future<?> f : done) {
        f.get(30, TimeUnit.SECONDS);
      }
      stop.set(true);
      churn.get(30, TimeUnit.SECONDS);
    } finally {
      pool.shutdownNow();
    }

    for (String key : stable) {
      assertThat(registry.get("polite.calls.rejected").tag("key", key).counter().count())
          .as(key).isEqualTo(threads * events / stable.length);
      assertThat(registry.get("polite.calls.wait").tag("key", key).timer().count())
          .as(key).isEqualTo(threads * events / stable.length);
    }
    assertThat(registry.find("polite.key.pace").gauges()).hasSizeLessThanOrEqualTo(8);
  }

  private static CallContext call(String key) {
    return CallContext.of(key, RequestView.of("GET", URI.create("https://api.example.com/"), HeaderLines.empty()), 1);
  }

  private static KeySnapshot snapshot(String key, double pace) {
    return new KeySnapshot(key, pace, 1, 1, Duration.ZERO, null, KeySnapshot.Source.STARTING, 0, false);
  }
}
