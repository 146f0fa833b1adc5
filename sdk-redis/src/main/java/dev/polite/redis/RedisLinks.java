package dev.polite.redis;

import io.lettuce.core.RedisURI;
import io.lettuce.core.resource.ClientResources;
import java.util.List;
import java.util.function.Function;

/**
 * Which {@link RedisLink} a URI names: one server ({@link ServerLink}) or a Cluster
 * ({@link ClusterLink}). Apart from the interface, so that the interface does not name the
 * classes that implement it.
 */
final class RedisLinks {
  private RedisLinks() {}

  /**
   * Reads {@code uri} now and returns what makes its link: {@code redis://} or {@code rediss://}
   * for one server (Lettuce's syntax), {@code redis-cluster://host:port,host:port} (or
   * {@code rediss-cluster://}) for a Cluster, by any of its nodes (it finds the rest itself).
   *
   * @throws IllegalArgumentException for a URI Lettuce cannot read, or a cluster URI without a host
   */
  static Function<ClientResources, RedisLink> parse(String uri) {
    for (String scheme : List.of("redis-cluster://", "rediss-cluster://")) {
      if (uri.regionMatches(true, 0, scheme, 0, scheme.length())) {
        List<RedisURI> seeds = ClusterLink.seeds(uri.substring(scheme.length()),
            scheme.startsWith("rediss") ? "rediss://" : "redis://");
        return resources -> new ClusterLink(seeds, resources);
      }
    }
    RedisURI server = RedisURI.create(uri);
    return resources -> new ServerLink(server, resources);
  }
}
