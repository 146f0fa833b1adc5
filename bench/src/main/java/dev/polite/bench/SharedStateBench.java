package dev.polite.bench;

import dev.polite.okhttp.PoliteInterceptor;
import dev.polite.redis.RedisSharedState;
import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import okhttp3.Request;
import okhttp3.Response;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What sharing a key's budget through Redis costs per call, beside the same interceptor alone, on
 * {@link InterceptorBench}'s canned answer (a pace nobody waits for):
 * <ul>
 *   <li>{@code alone}: {@link PoliteInterceptor#create()};
 *   <li>{@code shared}: the same with a {@link RedisSharedState} on a real {@code redis-server}
 *       (started here from the {@code PATH}, on a free loopback port): each call takes a unit of
 *       the key's lease; a lease is one Redis round trip, asynchronous, for a batch of units.
 * </ul>
 * Sampled; the round trips per call are printed at the end of the trial.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms512m", "-Xmx512m"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class SharedStateBench {
  private CannedChain chain;
  private Request request;
  private PoliteInterceptor alone;
  private PoliteInterceptor shared;
  private RedisSharedState state;
  private Process redis;
  private Path dir;
  private long calls;

  @Setup(Level.Trial)
  public void setUp() throws Exception {
    int port;
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = socket.getLocalPort();
    }
    dir = Files.createTempDirectory("polite-bench-redis");
    redis = new ProcessBuilder(redisServer(), "--port", Integer.toString(port), "--bind", "127.0.0.1",
        "--save", "", "--appendonly", "no", "--dir", dir.toString())
        .redirectErrorStream(true).redirectOutput(dir.resolve("redis.log").toFile()).start();
    state = RedisSharedState.builder("redis://127.0.0.1:" + port)
        .connectWait(java.time.Duration.ofSeconds(5)).build();
    chain = CannedChain.ietf200(InterceptorBench.QUOTA);
    request = chain.request();
    alone = PoliteInterceptor.create();
    shared = PoliteInterceptor.builder().sharedState(state).build();
    Response response = chain.proceed(request);
    for (int i = 0; i < 10_000; i++) {
      if (alone() != response || shared() != response) {
        throw new IllegalStateException("an interceptor did not pass the canned answer through");
      }
    }
    if (state.isFallingBack()) {
      throw new IllegalStateException("Redis did not answer: see " + dir.resolve("redis.log"));
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() throws Exception {
    System.out.printf("%nshared: %d Redis round trips for %d calls (%.6f per call)%n",
        state.roundTrips(), calls, state.roundTrips() / (double) Math.max(1, calls));
    state.close();
    redis.destroy();
    redis.waitFor(5, TimeUnit.SECONDS);
  }

  @Benchmark
  public Response alone() throws IOException {
    return alone.intercept(chain);
  }

  @Benchmark
  public Response shared() throws IOException {
    calls++;
    return shared.intercept(chain);
  }

  private static String redisServer() {
    for (String d : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      Path candidate = Path.of(d, "redis-server");
      if (Files.isExecutable(candidate)) {
        return candidate.toString();
      }
    }
    throw new IllegalStateException("SharedStateBench runs a real Redis: install redis-server "
        + "(Debian/Ubuntu: apt-get install -y redis-server)");
  }
}
