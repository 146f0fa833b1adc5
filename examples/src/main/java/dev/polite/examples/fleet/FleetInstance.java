package dev.polite.examples.fleet;

import dev.polite.okhttp.PoliteInterceptor;
import dev.polite.redis.RedisSharedState;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import okhttp3.ConnectionPool;
import okhttp3.Dispatcher;
import okhttp3.OkHttpClient;
import org.jspecify.annotations.Nullable;

/**
 * One client instance of the fleet, isolated as a process of its own would be: its own
 * OkHttpClient (own dispatcher, own connection pool), its own {@link PoliteInterceptor} with
 * polite's defaults, and, in the shared rows, its own {@link RedisSharedState} connection (so its
 * own instance id in Redis). Nothing but Redis and the server is shared between instances.
 *
 * <p>Usage: {@code try (FleetInstance one = FleetInstance.shared(redisUri, 4, Duration.ofMillis(20))) { one.client().newCall(request).execute(); }}
 */
final class FleetInstance implements AutoCloseable {
  private final OkHttpClient client;
  private final @Nullable RedisSharedState shared;
  private final CallDurations redisWaits;

  private FleetInstance(int threads, @Nullable RedisSharedState shared, CallDurations redisWaits) {
    this.shared = shared;
    this.redisWaits = redisWaits;
    PoliteInterceptor.Builder polite = PoliteInterceptor.builder();
    if (shared != null) {
      polite.sharedState(shared);
    }
    Dispatcher dispatcher = new Dispatcher();
    // Blocking calls run on the workers' own threads; the dispatcher only counts them, and must
    // not hold one back (its default allows 5 per host).
    dispatcher.setMaxRequests(Math.max(64, threads));
    dispatcher.setMaxRequestsPerHost(Math.max(64, threads));
    this.client = new OkHttpClient.Builder()
        .dispatcher(dispatcher)
        .connectionPool(new ConnectionPool(threads, 1, TimeUnit.MINUTES))
        .addInterceptor(polite.build())
        .build();
  }

  /** An instance alone: polite learns the limit by itself, as today. */
  static FleetInstance alone(int threads) {
    return new FleetInstance(threads, null, new CallDurations());
  }

  /**
   * An instance on the fleet's budget in the Redis at {@code redisUri}, with a connection of its
   * own, waiting at most {@code redisTimeout} for each answer (polite-redis's default: 20 ms).
   */
  static FleetInstance shared(String redisUri, int threads, Duration redisTimeout) {
    CallDurations redisWaits = new CallDurations();
    RedisSharedState shared = RedisSharedState.builder(redisUri).timeout(redisTimeout)
        .onCallWaited(waited -> redisWaits.add(waited.toNanos())).build();
    return new FleetInstance(threads, shared, redisWaits);
  }

  /** The instance's client, for its worker threads. */
  OkHttpClient client() {
    return client;
  }

  /** Redis commands this instance has sent so far; 0 alone. */
  long roundTrips() {
    return shared == null ? 0 : shared.roundTrips();
  }

  /** How many of its calls' waits for Redis are recorded so far. */
  int redisWaitsRecorded() {
    return redisWaits.count();
  }

  /** How long each of its calls that waited for Redis waited, in nanoseconds; none alone. */
  long[] redisWaitsNanos() {
    return redisWaits.nanos();
  }

  /** Whether this instance shares the fleet's budget through Redis. */
  boolean isShared() {
    return shared != null;
  }

  /** Whether this instance paces alone now because Redis did not answer in time; false alone. */
  boolean isFallingBack() {
    return shared != null && shared.isFallingBack();
  }

  /** Cancels every call still running, for a run's end that would otherwise wait on them. */
  void cancelAll() {
    client.dispatcher().cancelAll();
  }

  /** Releases the client's threads and connections, and the Redis connection. */
  @Override
  public void close() {
    client.dispatcher().executorService().shutdown();
    client.connectionPool().evictAll();
    if (shared != null) {
      shared.close();
    }
  }
}
