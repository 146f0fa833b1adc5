package dev.polite.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import io.lettuce.core.resource.ClientResources;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link RedisSharedState#close()} ends, and never holds one of Lettuce's threads, however its
 * connections' closes go. A Lettuce connection's {@code close()} waits, without a bound, for its
 * channel to close on its event loop; a connect lands on that loop, so a connection that lands
 * after {@code close()} and is closed there by a blocking {@code close()} waits for the very
 * thread it holds.
 */
class CloseTest {
  @RegisterExtension final RealRedis redis = new RealRedis();

  @Test
  void aSubscriptionThatLandsAfterCloseIsClosedWithoutHoldingTheThreadItLandsOn() throws Exception {
    CompletableFuture<StatefulRedisPubSubConnection<String, String>> landing = new CompletableFuture<>();
    RedisSharedState state = builder(real -> new Link(real, landing, true)).build();
    state.close();
    AtomicInteger closedAsync = new AtomicInteger();
    // A connection whose blocking close never ends: its channel's loop is the thread it lands on.
    StatefulRedisPubSubConnection<String, String> connection = unclosable(closedAsync);
    Thread loop = new Thread(() -> landing.complete(connection), "as-if-lettuce");
    loop.start();
    loop.join(TimeUnit.SECONDS.toMillis(10)); // a hang detector, not a timing
    assertThat(loop.isAlive()).as("the thread the subscription landed on is held").isFalse();
    assertThat(closedAsync).as("the late subscription is closed, without waiting").hasValue(1);
  }

  @Test
  void closeEndsWhenLettucesShutdownDoesNot() throws Exception {
    RedisSharedState state = builder(real -> new Link(real, new CompletableFuture<>(), false)).build();
    Thread closing = new Thread(state::close, "closing");
    closing.start();
    closing.join(TimeUnit.SECONDS.toMillis(10)); // a hang detector: close() waits at most its bound
    assertThat(closing.isAlive()).as("close() still waiting for the client's shutdown").isFalse();
  }

  private RedisSharedState.Builder builder(Function<RedisLink, RedisLink> wrap) {
    Function<ClientResources, RedisLink> real = RedisLinks.parse(redis.process().uri());
    return RedisSharedState.builder(resources -> wrap.apply(real.apply(resources)))
        .prefix("close-test:").timeout(Duration.ofSeconds(2));
  }

  @SuppressWarnings("unchecked")
  private static StatefulRedisPubSubConnection<String, String> unclosable(AtomicInteger closedAsync) {
    CountDownLatch never = new CountDownLatch(1);
    return (StatefulRedisPubSubConnection<String, String>) Proxy.newProxyInstance(
        CloseTest.class.getClassLoader(), new Class<?>[] {StatefulRedisPubSubConnection.class},
        (proxy, method, args) -> switch (method.getName()) {
          case "close" -> {
            never.await();
            yield null;
          }
          case "closeAsync" -> {
            closedAsync.incrementAndGet();
            yield new CompletableFuture<Void>();
          }
          case "toString" -> "an unclosable pub/sub connection";
          default -> throw new UnsupportedOperationException(method.getName());
        });
  }

  /**
   * A real link whose pause subscription lands when the test says, and whose shutdown, unless
   * {@code shutdownEnds}, is never told to have ended (the real client still goes).
   */
  private record Link(RedisLink link,
      CompletableFuture<StatefulRedisPubSubConnection<String, String>> subscription,
      boolean shutdownEnds) implements ForwardingLink {
    @Override
    public CompletableFuture<StatefulRedisPubSubConnection<String, String>> connectPubSub() {
      return subscription;
    }

    @Override
    public CompletableFuture<Void> shutdownAsync() {
      CompletableFuture<Void> real = link.shutdownAsync();
      return shutdownEnds ? real : new CompletableFuture<>();
    }
  }
}
