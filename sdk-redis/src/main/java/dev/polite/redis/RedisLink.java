package dev.polite.redis;

import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import io.lettuce.core.api.async.RedisScriptingAsyncCommands;
import java.util.concurrent.CompletableFuture;

/**
 * The Redis a {@link RedisSharedState} talks to, one server ({@link ServerLink}) or a Cluster
 * ({@link ClusterLink}), behind the little the state needs of it: a connection for the lease
 * script, one subscribed to the pauses, and which node a key's commands go to, so that a node
 * that fails sends only its own keys to pace alone. {@link RedisLinks} reads a URI into the one
 * or the other.
 *
 * <p>Thread-safe.
 */
interface RedisLink {
  /** Opens a connection for the lease script; Lettuce reconnects it from then on. */
  CompletableFuture<Commands> connect();

  /** Opens a connection to subscribe to the pauses; Lettuce reconnects and resubscribes it. */
  CompletableFuture<? extends StatefulRedisPubSubConnection<String, String>> connectPubSub();

  /**
   * The node that serves {@code redisKey} now: a Cluster node's id ({@code "slot "} and the
   * slot while none does), or {@code ""} for one server and before the first connection.
   */
  String nodeOf(String redisKey);

  /**
   * Whether {@code node} still serves any key. A Cluster's failed master does not once its
   * replica has taken its slots over; one server always does.
   */
  boolean serves(String node);

  /**
   * Closes the client: its connections and, within 2 s, its threads (not the resources'). Done
   * when every connection has closed, which Lettuce does not bound: its waiter bounds it.
   */
  CompletableFuture<Void> shutdownAsync();

  /**
   * An open connection and the commands the script runs on: Lettuce's connection to one server,
   * or its Cluster connection, which sends each command to the node of its key's slot.
   *
   * @param checkOpen whether {@link StatefulConnection#isOpen()} says if commands can go now (a
   *     Cluster connection's is only that of the node it first reached)
   */
  record Commands(StatefulConnection<String, String> connection,
      RedisScriptingAsyncCommands<String, String> scripting, boolean checkOpen) {
    /** Whether commands can go now, as far as the connection knows. */
    boolean isOpen() {
      return !checkOpen || connection.isOpen();
    }

    /** Closes the connection without waiting: a blocking close on a Lettuce thread may wait for itself. */
    CompletableFuture<Void> closeAsync() {
      return connection.closeAsync();
    }
  }
}
