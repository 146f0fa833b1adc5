package dev.polite.redis;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import io.lettuce.core.resource.ClientResources;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * One Redis server (or whatever answers at its address: a proxy, a managed endpoint). Every key
 * is on its one node, {@code ""}.
 *
 * <p>Thread-safe.
 */
final class ServerLink implements RedisLink {
  private final RedisURI uri;
  private final RedisClient client;

  ServerLink(RedisURI uri, ClientResources resources) {
    this.uri = uri;
    this.client = RedisClient.create(resources, uri);
    client.setOptions(ClientOptions.builder()
        .autoReconnect(true)
        // A command for a Redis that is away fails at once: its caller falls back now, rather
        // than queueing behind a reconnect.
        .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
        .timeoutOptions(TimeoutOptions.enabled(Duration.ofSeconds(1)))
        .build());
  }

  @Override
  public CompletableFuture<Commands> connect() {
    return client.connectAsync(StringCodec.UTF8, uri).toCompletableFuture()
        .thenApply(c -> new Commands(c, c.async(), true));
  }

  @Override
  public CompletableFuture<StatefulRedisPubSubConnection<String, String>> connectPubSub() {
    return client.connectPubSubAsync(StringCodec.UTF8, uri).toCompletableFuture();
  }

  @Override
  public String nodeOf(String redisKey) {
    return "";
  }

  @Override
  public boolean serves(String node) {
    return true;
  }

  @Override
  public CompletableFuture<Void> shutdownAsync() {
    return client.shutdownAsync(0, 2, TimeUnit.SECONDS);
  }

  @Override
  public String toString() {
    return uri.toString();
  }
}
