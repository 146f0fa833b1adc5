package dev.polite.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lettuce.core.RedisURI;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How a {@code redis-cluster://} URI becomes the cluster's seed nodes. */
class ClusterUriTest {
  @Test
  void eachHostIsASeedWithTheSameCredentialsAndOptions() {
    List<RedisURI> seeds = ClusterLink.seeds("user:secret@10.0.0.1:7000, 10.0.0.2:7001/0?timeout=5s", "rediss://");
    assertThat(seeds).extracting(RedisURI::getHost).containsExactly("10.0.0.1", "10.0.0.2");
    assertThat(seeds).extracting(RedisURI::getPort).containsExactly(7000, 7001);
    assertThat(seeds).allSatisfy(seed -> {
      assertThat(seed.isSsl()).isTrue();
      var credentials = seed.getCredentialsProvider().resolveCredentials().block();
      assertThat(credentials.getUsername()).isEqualTo("user");
      assertThat(new String(credentials.getPassword())).isEqualTo("secret");
      assertThat(seed.getTimeout()).isEqualTo(Duration.ofSeconds(5));
    });
  }

  @Test
  void aClusterUriWithoutAHostIsRefusedWhenTheStateIsBuilt() {
    assertThatThrownBy(() -> RedisSharedState.builder("redis-cluster://")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at least one host:port");
  }

  @Test
  void aPlainHostIsOneSeedAndAnUnreadableUriIsRefused() {
    assertThat(ClusterLink.seeds("h:1", "redis://")).singleElement()
        .satisfies(seed -> assertThat(seed.isSsl()).isFalse());
    assertThatThrownBy(() -> RedisSharedState.builder("not a uri")).isInstanceOf(IllegalArgumentException.class);
  }
}
