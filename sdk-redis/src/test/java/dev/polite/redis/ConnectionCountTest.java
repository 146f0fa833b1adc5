package dev.polite.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.polite.SharedKey;
import dev.polite.Ticker;
import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import io.lettuce.core.resource.ClientResources;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A shared state holds two connections for its whole life (one for leases, one subscribed to
 * pauses), however often Redis goes away or is slow to greet it: counted on a real redis-server
 * ({@code CLIENT LIST}) under the state's client name.
 */
class ConnectionCountTest {
  private static final String NAME = "polite-count-test";

  @RegisterExtension final RealRedis redis = new RealRedis();

  private static RedisSharedState.Builder builder(int port) {
    return RedisSharedState.builder("redis://127.0.0.1:" + port + "?clientName=" + NAME)
        .prefix("count-test:").retryEvery(Duration.ofMillis(50));
  }

  /** A key that leases at every call: with a pace, and a unit per lease. */
  private static SharedKey key(RedisSharedState state) {
    SharedKey key = state.join("api", Ticker.system(), () -> {});
    key.paceLearned(1000, 1000, true, System.nanoTime());
    return key;
  }

  @Test
  void outagesOpenNoSecondConnection() throws Exception {
    // A timeout no loaded machine meets: what is counted is connections, not slowness.
    try (RedisSharedState state =
        builder(redis.process().port()).timeout(Duration.ofSeconds(1)).build()) {
      SharedKey key = key(state);
      callUntil(key, () -> ServerClients.named(redis.process().uri(), NAME) == 2,
          Duration.ofSeconds(5));
      for (int outage = 0; outage < 2; outage++) {
        redis.process().stop();
        callUntil(key, () -> false, Duration.ofMillis(800)); // every lease finds the connection down
        redis.process().startAgain();
        callUntil(key, () -> !state.isFallingBack(), Duration.ofSeconds(10));
        assertThat(state.isFallingBack()).as("rejoined after outage %d", outage + 1).isFalse();
      }
      // Lettuce reconnects a connection on its own back-off, which may come a second or two after
      // the state rejoined (on another connection, before): watch for it.
      assertThat(mostClientsOver(key, Duration.ofSeconds(3)))
          .as("connections on the server after two outages").isEqualTo(2);
    }
    assertThat(ServerClients.named(redis.process().uri(), NAME)).as("after close").isZero();
  }

  @Test
  void aConnectThatTimedOutIsNotJoinedByAnother() throws Exception {
    // Every read held 100 ms: the greeting (HELLO, then the client's name and library) takes
    // several of them, far past the 50 ms build() waits.
    try (DelayingProxy proxy = new DelayingProxy(redis.process().port(), Duration.ofMillis(100))) {
      RedisSharedState state = builder(proxy.port()).timeout(Duration.ofMillis(20))
          .connectWait(Duration.ofMillis(50)).build();
      try {
        assertThat(state.isFallingBack()).as("the connect timed out").isTrue();
        SharedKey key = key(state);
        // Calls meanwhile find no connection: they must wait for the one under way, not open
        // another beside it.
        assertThat(mostClientsOver(key, Duration.ofSeconds(3)))
            .as("connections on the server while the first connect ends late").isEqualTo(2);
      } finally {
        state.close();
      }
      callUntil(null, () -> ServerClients.named(redis.process().uri(), NAME) == 0,
          Duration.ofSeconds(5));
      assertThat(ServerClients.named(redis.process().uri(), NAME)).as("after close").isZero();
    }
  }

  @Test
  void aPauseSubscriptionThatFailedToOpenIsOpenedAgain() throws Exception {
    AtomicInteger attempts = new AtomicInteger();
    Function<ClientResources, RedisLink> real =
        RedisLinks.parse("redis://127.0.0.1:" + redis.process().port() + "?clientName=" + NAME);
    try (RedisSharedState state = RedisSharedState.builder(
            resources -> new FirstSubscriptionFails(real.apply(resources), attempts))
        .prefix("count-test:").retryEvery(Duration.ofMillis(50)).timeout(Duration.ofSeconds(1)).build()) {
      SharedKey key = key(state);
      callUntil(key, () -> ServerClients.named(redis.process().uri(), NAME) == 2, Duration.ofSeconds(5));
      assertThat(ServerClients.named(redis.process().uri(), NAME))
          .as("the lease connection and, on a later lease, the pause subscription").isEqualTo(2);
      assertThat(mostClientsOver(key, Duration.ofMillis(500))).as("and no third").isEqualTo(2);
      assertThat(attempts).as("subscriptions tried: the failed one and the one that opened").hasValue(2);
    }
  }

  /** A link whose first pause subscription fails, as one would while Redis restarts. */
  private record FirstSubscriptionFails(RedisLink link, AtomicInteger attempts) implements ForwardingLink {
    @Override
    public CompletableFuture<? extends StatefulRedisPubSubConnection<String, String>> connectPubSub() {
      return attempts.incrementAndGet() == 1
          ? CompletableFuture.failedFuture(new RedisConnectionException("refused, as while restarting"))
          : link.connectPubSub();
    }
  }

  /** Calls on {@code key} every 10 ms until {@code done} or {@code most} has passed. */
  private static void callUntil(SharedKey key, BooleanSupplier done, Duration most)
      throws InterruptedException {
    long end = System.nanoTime() + most.toNanos();
    while (!done.getAsBoolean() && System.nanoTime() < end) {
      if (key != null) {
        key.take(1, 0, 0, System.nanoTime());
      }
      Thread.sleep(10);
    }
  }

  /** The most connections the server held under the state's name while {@code key} called on. */
  private long mostClientsOver(SharedKey key, Duration length) throws InterruptedException {
    long most = 0;
    long end = System.nanoTime() + length.toNanos();
    while (System.nanoTime() < end) {
      key.take(1, 0, 0, System.nanoTime());
      most = Math.max(most, ServerClients.named(redis.process().uri(), NAME));
      Thread.sleep(50);
    }
    return most;
  }
}
