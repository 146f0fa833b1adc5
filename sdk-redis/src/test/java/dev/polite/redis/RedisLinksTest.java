package dev.polite.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Which link a URI names: one server, or a Cluster by either scheme, in any case; no connection is made. */
class RedisLinksTest {

  @Test
  void aServerUriMakesAServerLinkAndAClusterUriAClusterLink() throws Exception {
    ClientResources resources = DefaultClientResources.create();
    try {
      RedisLink server = RedisLinks.parse("redis://127.0.0.1:6379").apply(resources);
      RedisLink cluster = RedisLinks.parse("REDIS-CLUSTER://127.0.0.1:7000,127.0.0.1:7001").apply(resources);
      RedisLink tls = RedisLinks.parse("rediss-cluster://127.0.0.1:7000").apply(resources);

      assertThat(server).isInstanceOf(ServerLink.class);
      assertThat(server.nodeOf("polite:{k}")).as("one server: no node to tell apart").isEmpty();
      assertThat(cluster).isInstanceOf(ClusterLink.class);
      assertThat(tls).isInstanceOf(ClusterLink.class);
      for (RedisLink link : new RedisLink[] {server, cluster, tls}) {
        link.shutdownAsync().get(5, TimeUnit.SECONDS);
      }
    } finally {
      resources.shutdown().get(5, TimeUnit.SECONDS);
    }
  }

  @Test
  void aUriThatNamesNoServerIsRefusedWhenRead() {
    assertThatThrownBy(() -> RedisLinks.parse("redis-cluster://")).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> RedisLinks.parse("not a uri")).isInstanceOf(IllegalArgumentException.class);
  }
}
