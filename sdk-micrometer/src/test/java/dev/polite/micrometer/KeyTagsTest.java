package dev.polite.micrometer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.polite.okhttp.PoliteInterceptor;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.Collection;
import java.util.Set;
import java.util.stream.Collectors;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.RecordedRequest;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The {@code key} tag is bounded: past {@code maxKeyTags}, keys count under "other"; a key polite
 * forgets takes its meters with it and frees its place.
 */
class KeyTagsTest {
  private final Polite h = new Polite();
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

  KeyTagsTest() throws java.io.IOException {
    h.server.setDispatcher(new Dispatcher() {
      @Override
      public MockResponse dispatch(RecordedRequest request) {
        return new MockResponse.Builder().code(200).build();
      }
    });
  }

  @AfterEach
  void close() {
    h.close();
  }

  /** One key per tenant: the header's value, as it is (these tenants are no secret). */
  private PoliteInterceptor.Builder perTenant(PoliteMetrics metrics) {
    return h.builder().key(r -> "tenant-" + r.header("X-Tenant")).addListener(metrics);
  }

  private Request tenant(int i) {
    return h.get("/a").newBuilder().header("X-Tenant", String.valueOf(i)).build();
  }

  @Test
  void aHundredAndFiftyKeysMakeAHundredKeyTagsAndOther() throws Exception {
    PoliteMetrics metrics = PoliteMetrics.create();
    metrics.bindTo(registry);
    OkHttpClient client = h.client(perTenant(metrics));

    for (int i = 0; i < 150; i++) {
      h.call(client, tenant(i));
    }

    Collection<Timer> waits = registry.get("polite.calls.wait").timers();
    assertThat(keys(waits)).hasSize(PoliteMetrics.DEFAULT_MAX_KEY_TAGS + 1)
        .contains(PoliteMetrics.OTHER, "tenant-0", "tenant-99").doesNotContain("tenant-100");
    assertThat(registry.get("polite.calls.wait").tag("key", PoliteMetrics.OTHER).timer().count())
        .as("the fifty past the bound").isEqualTo(50);
    assertThat(waits.stream().mapToLong(Timer::count).sum()).isEqualTo(150);
    assertThat(keys(registry.get("polite.calls.gave.up").meters()))
        .hasSize(PoliteMetrics.DEFAULT_MAX_KEY_TAGS + 1);
    assertThat(keys(registry.get("polite.key.pace").gauges()))
        .as("no gauge for other: a sum of paces means nothing")
        .hasSize(PoliteMetrics.DEFAULT_MAX_KEY_TAGS).doesNotContain(PoliteMetrics.OTHER);
  }

  @Test
  void aForgottenKeyTakesItsMetersAndFreesItsTag() throws Exception {
    PoliteMetrics metrics = PoliteMetrics.builder().maxKeyTags(10).build();
    metrics.bindTo(registry);
    // polite keeps ten keys; an eleventh makes it forget the two idlest, down to nine.
    OkHttpClient client = h.client(perTenant(metrics).maxKeys(10));

    for (int i = 0; i < 11; i++) {
      h.call(client, tenant(i));
      h.clock.advance(Duration.ofMillis(1)); // so that "least recently used" is one key
    }

    assertThat(keys(registry.getMeters()))
        .as("tenant-10 came when ten were tagged: other; then 0 and 1 were forgotten")
        .doesNotContain("tenant-0", "tenant-1", "tenant-10")
        .contains("tenant-2", "tenant-9", PoliteMetrics.OTHER);
    assertThat(registry.get("polite.calls.wait").tag("key", PoliteMetrics.OTHER).timer().count())
        .isEqualTo(1);

    h.call(client, tenant(11));
    assertThat(registry.get("polite.key.pace").tag("key", "tenant-11").gauge().value())
        .as("a freed place, with its gauges").isNaN();

    // The tenth tag; and polite, at eleven keys again, forgets tenants 2 and 3.
    h.call(client, tenant(12));
    assertThat(registry.get("polite.calls.wait").tag("key", "tenant-12").timer().count())
        .isEqualTo(1);
    assertThat(keys(registry.getMeters())).doesNotContain("tenant-2", "tenant-3");
    assertThat(keys(registry.get("polite.key.pace").gauges()))
        .containsExactlyInAnyOrder("tenant-4", "tenant-5", "tenant-6", "tenant-7", "tenant-8",
            "tenant-9", "tenant-11", "tenant-12");
    assertThat(registry.get("polite.calls.wait").tag("key", PoliteMetrics.OTHER).timer().count())
        .as("tenant-10 alone").isEqualTo(1);
  }

  @Test
  void zeroKeyTagsCountsEverythingUnderOther() throws Exception {
    PoliteMetrics metrics = PoliteMetrics.builder().maxKeyTags(0).build();
    metrics.bindTo(registry);
    OkHttpClient client = h.client(perTenant(metrics));

    h.call(client, tenant(1));
    h.call(client, tenant(2));

    assertThat(keys(registry.getMeters())).containsExactly(PoliteMetrics.OTHER);
    assertThat(registry.get("polite.calls.wait").timer().count()).isEqualTo(2);
    assertThat(registry.find("polite.key.pace").gauges()).isEmpty();
  }

  private static Set<String> keys(Collection<? extends Meter> meters) {
    return meters.stream().map(m -> m.getId().getTag("key")).collect(Collectors.toSet());
  }
}
