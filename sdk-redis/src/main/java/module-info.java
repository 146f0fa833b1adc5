/**
 * polite-redis: {@link dev.polite.redis.RedisSharedState}, a {@link dev.polite.SharedState} on
 * Redis, through Lettuce (an automatic module named {@code lettuce.core}).
 */
@SuppressWarnings({"requires-automatic"})
module dev.polite.redis {
  requires transitive dev.polite;
  requires lettuce.core;
  requires org.slf4j;
  // The API's nullness annotations: optional at run time, visible to every reader at compile time.
  requires static transitive org.jspecify;

  exports dev.polite.redis;
}
