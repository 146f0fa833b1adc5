package dev.polite.redis;

import java.time.Duration;

/** TEMPORARY stand-in for sdk-redis's class until it lands on main; deleted then. Not shipped. */
public final class RedisSharedState implements AutoCloseable {
  public static RedisSharedState connect(String redisUri) {
    return builder(redisUri).build();
  }

  public static Builder builder(String redisUri) {
    return new Builder();
  }

  public long roundTrips() {
    return 0;
  }

  @Override
  public void close() {}

  public static final class Builder {
    public Builder timeout(Duration timeout) {
      return this;
    }

    public Builder prefix(String prefix) {
      return this;
    }

    public RedisSharedState build() {
      return new RedisSharedState();
    }
  }
}
