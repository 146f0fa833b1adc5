package dev.polite.examples.fleet;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import okhttp3.Request;
import okhttp3.Response;
import org.jspecify.annotations.Nullable;

/**
 * One instance of a {@link ProcessFleet}, as its own JVM: its own OkHttpClient, PoliteInterceptor
 * and, shared, RedisSharedState, as one process of a real fleet. Started by the parent with the
 * server's URL, the Redis URI (or {@value #NO_REDIS}), C, D in milliseconds and its Redis timeout in milliseconds.
 *
 * <p>Its protocol, one line each way ({@link ChildJvm#PREFIX} before each line it writes): it warms
 * up (throwaway instances calling the server's unlimited {@code /health}, so no measured call pays
 * the JVM's first use of OkHttp, polite and the Redis client), says {@code ready}, waits for
 * {@code go} on stdin, runs its {@link InstanceLoad}, writes {@code report <json>} and exits. When
 * its stdin closes (the parent stopped it, or died) it exits at once: no orphan keeps calling.
 *
 * <p>Usage (by {@link ProcessFleet}): {@code java -cp polite-examples.jar dev.polite.examples.fleet.FleetChild http://127.0.0.1:PORT redis://127.0.0.1:PORT 4 7000 20}
 */
final class FleetChild {
  /** The Redis argument of an instance alone. */
  static final String NO_REDIS = "-";
  private static final int WARM_UP_CALLS = 20;

  private FleetChild() {}

  public static void main(String[] args) throws Exception {
    if (args.length != 5) {
      System.err.println("usage: FleetChild SERVER_URL REDIS_URI|- THREADS MILLIS REDIS_TIMEOUT_MILLIS");
      System.exit(2);
    }
    String url = args[0];
    String redisUri = NO_REDIS.equals(args[1]) ? null : args[1];
    int threads = Integer.parseInt(args[2]);
    Duration length = Duration.ofMillis(Long.parseLong(args[3]));
    Duration redisTimeout = Duration.ofMillis(Long.parseLong(args[4]));
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));

    warmUp(url, redisUri, redisTimeout);
    FleetInstance instance = redisUri == null ? FleetInstance.alone(threads)
        : FleetInstance.shared(redisUri, threads, redisTimeout);
    out.println(ChildJvm.PREFIX + "ready");
    if (!"go".equals(in.readLine())) {
      Runtime.getRuntime().halt(3); // the parent went away before the clock started
    }
    Thread orphanGuard = new Thread(() -> {
      try {
        while (in.readLine() != null) {
          // nothing more is said after go; only the end of the stream matters
        }
      } catch (IOException e) {
        // the pipe broke: the parent is gone all the same
      }
      Runtime.getRuntime().halt(3);
    }, "fleet-child-orphan-guard");
    orphanGuard.setDaemon(true);
    orphanGuard.start();

    Request request = new Request.Builder().url(url + "/api/items").get().build();
    InstanceReport report = new InstanceLoad(List.of(instance), threads, length, request).run();
    out.println(ChildJvm.PREFIX + "report " + new ObjectMapper().writeValueAsString(report));
    instance.close();
    System.exit(0);
  }

  private static void warmUp(String url, @Nullable String redisUri, Duration redisTimeout) throws IOException {
    Request health = new Request.Builder().url(url + "/health").build();
    try (FleetInstance alone = FleetInstance.alone(1);
        FleetInstance shared = redisUri == null ? null : FleetInstance.shared(redisUri, 1, redisTimeout)) {
      for (int i = 0; i < WARM_UP_CALLS; i++) {
        for (FleetInstance instance : shared == null ? List.of(alone) : List.of(alone, shared)) {
          try (Response response = instance.client().newCall(health).execute()) {
            response.body().bytes();
          }
        }
      }
    }
  }
}
