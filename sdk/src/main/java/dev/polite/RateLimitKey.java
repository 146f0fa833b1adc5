package dev.polite;

import dev.polite.internal.Origin;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Objects;

/**
 * Says which limit a request counts against. Requests with the same key share one pace, one
 * pause and one learned policy. Keys appear in logs and events, so a key function must not put
 * credentials in them: {@link #header(String)} hashes the value it reads.
 *
 * <p>A key function reads the request through its {@link RequestView}, so one serves every engine.
 * Implementations must be thread-safe and quick: they run on every call.
 *
 * <pre>{@code
 * PoliteInterceptor.builder().key(RateLimitKey.header("X-Api-Key"))
 * PoliteHttpClient.builder(client).key(request -> request.host() + " " + request.header("X-Tenant"))
 * }</pre>
 */
@FunctionalInterface
public interface RateLimitKey {
  /** The key for {@code request}; never null. */
  String keyOf(RequestView request);

  /** Scheme, host and port: one limit per server. The default. */
  static RateLimitKey host() {
    return RateLimitKey::origin;
  }

  /**
   * Origin plus path, without the query: one limit per endpoint, for APIs that limit routes
   * separately (GitHub's search and core, say).
   */
  static RateLimitKey route() {
    return request -> origin(request) + request.encodedPath();
  }

  /**
   * Origin plus a digest of a request header's value (an API key, a tenant id): one limit per
   * credential per server. The value itself never appears in the key. Requests without the
   * header share the origin's key.
   */
  static RateLimitKey header(String name) {
    Objects.requireNonNull(name, "name");
    return request -> {
      String value = request.header(name);
      String origin = origin(request);
      return value == null ? origin : origin + " " + name.toLowerCase(java.util.Locale.ROOT) + "#" + digest(value);
    };
  }

  private static String origin(RequestView request) {
    return Origin.of(request.scheme(), request.host(), request.port());
  }

  private static String digest(String value) {
    try {
      byte[] hash = MessageDigest.getInstance("SHA-256").digest(value.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(hash, 0, 6);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required of every JVM", e);
    }
  }
}
