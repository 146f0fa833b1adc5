package dev.polite.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.polite.RateLimitedException;
import dev.polite.RequestCost;
import dev.polite.demo.DemoServer;
import dev.polite.demo.HeaderStyle;
import dev.polite.okhttp.PoliteInterceptor;
import java.time.Duration;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A call that costs more than the fleet's bucket can ever lend at once fails fast, as a call no
 * wait can serve, instead of asking Redis again and again until its max wait runs out.
 */
class UnlendableCostTest {
  @RegisterExtension final RealRedis redis = new RealRedis();

  @Test
  void aCallCostingMoreThanTheFleetCanLendFailsAfterOneRoundTrip() throws Exception {
    // The server: 10 a second, burst 10, advertised. leaseFor 100 ms: the fleet's bucket lends
    // at most 4 x 100 ms of its pace past empty, so no lease ever holds more than 10 + 4 = 14
    // units, while this instance's own bucket would let a call of 20 go after about a second.
    try (DemoServer server = DemoServer.builder().limit(10).window(Duration.ofSeconds(1))
            .headers(HeaderStyle.IETF).start();
        RedisSharedState state = RedisSharedState.builder(redis.process().uri()).prefix("cost-test:")
            .timeout(Duration.ofSeconds(1)).leaseFor(Duration.ofMillis(100)).build()) {
      OkHttpClient client = new OkHttpClient.Builder().addInterceptor(PoliteInterceptor.builder()
          .sharedState(state).maxWait(Duration.ofSeconds(6)).throwWhenRateLimited(true).build())
          .build();
      String url = server.url().resolve("/api/cost").toString();
      try (Response first = client.newCall(new Request.Builder().url(url).build()).execute()) {
        assertThat(first.code()).as("the answer that advertises the pace").isEqualTo(200);
      }
      Request costly = new Request.Builder().url(url).tag(RequestCost.class, RequestCost.of(20)).build();
      long trips = state.roundTrips();
      long start = System.nanoTime();
      assertThatThrownBy(() -> client.newCall(costly).execute()).isInstanceOf(RateLimitedException.class)
          .hasMessageContaining("the fleet can never lend a cost of 20.0");
      Duration took = Duration.ofNanos(System.nanoTime() - start);
      assertThat(state.roundTrips() - trips).as("round trips for the costly call").isLessThanOrEqualTo(2);
      // Its own bucket holds it for about a second first; the max wait (6 s) is far off.
      assertThat(took).as("time to fail").isLessThan(Duration.ofMillis(3500));
      assertThat(server.stats().admitted()).as("the costly call never went").isEqualTo(1);
    }
  }
}
