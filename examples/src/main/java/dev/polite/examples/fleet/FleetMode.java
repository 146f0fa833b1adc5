package dev.polite.examples.fleet;

/**
 * How the instances of one {@code fleet} row know about each other: not at all, through one
 * shared Redis, or through a Redis that is killed at mid-run and started again.
 *
 * <p>Usage: {@code for (FleetMode mode : FleetMode.values()) { ... mode.label() ... }}
 */
enum FleetMode {
  /** P independent polite instances, each learning the limit alone: today's behaviour. */
  ALONE("alone", false, false),
  /** P instances sharing one budget on polite-redis. */
  SHARED("shared", true, false),
  /** As {@link #SHARED}, with redis-server killed at mid-run and restarted on the same port. */
  SHARED_REDIS_KILLED("shared, Redis killed", true, true);

  private final String label;
  private final boolean shared;
  private final boolean killsRedis;

  FleetMode(String label, boolean shared, boolean killsRedis) {
    this.label = label;
    this.shared = shared;
    this.killsRedis = killsRedis;
  }

  /** The table's and the JSON's name for the row, such as {@code shared, Redis killed}. */
  public String label() {
    return label;
  }

  /** Whether each instance gets a {@code RedisSharedState}. */
  public boolean shared() {
    return shared;
  }

  /** Whether Redis is killed at mid-run and restarted. */
  public boolean killsRedis() {
    return killsRedis;
  }
}
