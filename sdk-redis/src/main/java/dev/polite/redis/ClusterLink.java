package dev.polite.redis;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisURI;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.models.partitions.Partitions;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode.NodeFlag;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import io.lettuce.core.resource.ClientResources;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * A Redis Cluster, through Lettuce's {@link RedisClusterClient}. Each key's two entries share one
 * hash tag, so the lease script runs on the one master of their slot; the script's text is loaded
 * on every node (a promoted replica knows it, and one that does not gets the text once anyway).
 * Pauses are published from that master and reach every node's subscribers, so one subscription,
 * on any node, hears them all.
 *
 * <h2>When a master fails</h2>
 * Its keys' commands fail at once (a node away rejects them), so those keys pace alone; keys on
 * the other masters go on sharing. Lettuce learns the new topology on its own triggers: refused
 * reconnects, redirections, an uncovered slot, rate-limited to one refresh per {@link #REFRESH_AFTER},
 * and every {@link #REFRESH_EVERY} besides. A node the Cluster marks failing is left out of the
 * topology, so its slots read as uncovered (commands fail at once, not on the dead node's
 * timeout) until its replica takes them over. A failover takes about {@code cluster-node-timeout}
 * (15 s by default) plus the replica's election (a second or two); keys pace alone for that long,
 * and rejoin within about {@link #REFRESH_AFTER} of the replica's promotion.
 *
 * <p>Thread-safe.
 */
final class ClusterLink implements RedisLink {
  /**
   * At most one topology refresh per second on Lettuce's triggers: the promoted replica is found
   * within about a second of its promotion, and a storm of refused reconnects costs one
   * {@code CLUSTER NODES} per node a second, not one per attempt.
   */
  static final Duration REFRESH_AFTER = Duration.ofSeconds(1);
  /** A refresh without a trigger, for a change no command ran into (a replica added, say). */
  static final Duration REFRESH_EVERY = Duration.ofSeconds(10);
  /** What a node is called while no node serves a slot: {@code "slot " + slot}. */
  private static final String UNCOVERED = "slot ";

  private final List<RedisURI> seeds;
  private final RedisClusterClient client;
  /** The lease connection once open, for its view of the topology (the client's would block to load one). */
  private volatile @Nullable StatefulRedisClusterConnection<String, String> connection;

  ClusterLink(List<RedisURI> seeds, ClientResources resources) {
    this.seeds = List.copyOf(seeds);
    this.client = RedisClusterClient.create(resources, seeds);
    client.setOptions(ClusterClientOptions.builder()
        .autoReconnect(true)
        .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
        .timeoutOptions(TimeoutOptions.enabled(Duration.ofSeconds(1)))
        .nodeFilter(node -> !(node.is(NodeFlag.FAIL) || node.is(NodeFlag.EVENTUAL_FAIL)
            || node.is(NodeFlag.HANDSHAKE) || node.is(NodeFlag.NOADDR)))
        .topologyRefreshOptions(ClusterTopologyRefreshOptions.builder()
            .enableAllAdaptiveRefreshTriggers()
            .adaptiveRefreshTriggersTimeout(REFRESH_AFTER)
            .enablePeriodicRefresh(REFRESH_EVERY)
            .build())
        .build());
  }

  /**
   * {@code [user:password@]host:port,host:port[/db][?options]} (a cluster URI after its scheme)
   * as one Lettuce URI per host, each with the same credentials and options.
   *
   * @param scheme {@code redis://} or {@code rediss://}
   */
  static List<RedisURI> seeds(String rest, String scheme) {
    int at = rest.lastIndexOf('@');
    String credentials = at < 0 ? "" : rest.substring(0, at + 1);
    String hostsAndAfter = rest.substring(at + 1);
    int end = hostsAndAfter.length();
    for (char c : new char[] {'/', '?'}) {
      int i = hostsAndAfter.indexOf(c);
      if (i >= 0) {
        end = Math.min(end, i);
      }
    }
    String after = hostsAndAfter.substring(end);
    List<RedisURI> seeds = new ArrayList<>();
    for (String host : hostsAndAfter.substring(0, end).split(",")) {
      if (!host.isBlank()) {
        seeds.add(RedisURI.create(scheme + credentials + host.strip() + after));
      }
    }
    if (seeds.isEmpty()) {
      throw new IllegalArgumentException("a redis-cluster:// URI names at least one host:port");
    }
    return seeds;
  }

  @Override
  public CompletableFuture<Commands> connect() {
    // Lettuce connects asynchronously only once it knows the topology: load it first, also
    // asynchronously (the client's getPartitions() would block the caller to load it).
    return client.refreshPartitionsAsync().toCompletableFuture()
        .thenCompose(loaded -> client.connectAsync(StringCodec.UTF8))
        .thenCompose(ClusterLink::toEveryNode)
        .thenApply(c -> {
          connection = c;
          return new Commands(c, c.async(), false);
        });
  }

  /**
   * Opens {@code c}'s connection to every node now, masters and replicas: Lettuce opens a node's
   * on its first command, and refuses that command while it connects (a node away must fail
   * commands at once, so they are not queued), which would send the first key of each master,
   * and of each replica promoted later, to pace alone. Keyed by host and port, as Lettuce finds
   * a slot's. Completes with {@code c} once each has opened or failed (a node away fails later).
   */
  private static CompletableFuture<StatefulRedisClusterConnection<String, String>> toEveryNode(
      StatefulRedisClusterConnection<String, String> c) {
    CompletableFuture<?>[] opening = c.getPartitions().stream()
        .map(node -> c.getConnectionAsync(node.getUri().getHost(), node.getUri().getPort()))
        .toArray(CompletableFuture[]::new);
    return CompletableFuture.allOf(opening).handle((opened, failure) -> c);
  }

  @Override
  public CompletableFuture<? extends StatefulRedisPubSubConnection<String, String>> connectPubSub() {
    return client.connectPubSubAsync(StringCodec.UTF8);
  }

  @Override
  public String nodeOf(String redisKey) {
    StatefulRedisClusterConnection<String, String> c = connection;
    if (c == null) {
      return ""; // not connected: every key's request fails alike
    }
    int slot = SlotHash.getSlot(redisKey);
    RedisClusterNode node = c.getPartitions().getPartitionBySlot(slot);
    return node == null ? UNCOVERED + slot : node.getNodeId();
  }

  @Override
  public boolean serves(String node) {
    StatefulRedisClusterConnection<String, String> c = connection;
    if (c == null) {
      return true;
    }
    if (node.isEmpty()) {
      return false; // "" was the Cluster before the first connection: that is over
    }
    Partitions partitions = c.getPartitions();
    if (node.startsWith(UNCOVERED)) {
      return partitions.getPartitionBySlot(Integer.parseInt(node.substring(UNCOVERED.length()))) == null;
    }
    RedisClusterNode known = partitions.getPartitionByNodeId(node);
    return known != null && !known.hasNoSlots();
  }

  @Override
  public CompletableFuture<Void> shutdownAsync() {
    return client.shutdownAsync(0, 2, TimeUnit.SECONDS);
  }

  @Override
  public String toString() {
    StringBuilder nodes = new StringBuilder("redis-cluster://");
    for (RedisURI seed : seeds) {
      nodes.append(nodes.length() > "redis-cluster://".length() ? "," : "").append(seed.getHost()).append(':')
          .append(seed.getPort());
    }
    return nodes.toString(); // no credentials, as Lettuce's own RedisURI.toString()
  }
}
