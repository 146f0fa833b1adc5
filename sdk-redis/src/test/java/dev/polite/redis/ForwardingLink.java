package dev.polite.redis;

import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import java.util.concurrent.CompletableFuture;

/**
 * A link that does what {@link #link()} does, but for the methods a test overrides: for tests
 * that stand a link in front of a real one ({@code record X(RedisLink link) implements
 * ForwardingLink}). Test-only.
 */
interface ForwardingLink extends RedisLink {
  RedisLink link();

  @Override
  default CompletableFuture<Commands> connect() {
    return link().connect();
  }

  @Override
  default CompletableFuture<? extends StatefulRedisPubSubConnection<String, String>> connectPubSub() {
    return link().connectPubSub();
  }

  @Override
  default String nodeOf(String redisKey) {
    return link().nodeOf(redisKey);
  }

  @Override
  default boolean serves(String node) {
    return link().serves(node);
  }

  @Override
  default CompletableFuture<Void> shutdownAsync() {
    return link().shutdownAsync();
  }
}
