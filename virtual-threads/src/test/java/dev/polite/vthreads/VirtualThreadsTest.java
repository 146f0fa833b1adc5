package dev.polite.vthreads;

import static org.assertj.core.api.Assertions.assertThat;

import dev.polite.demo.DemoServer;
import dev.polite.demo.StatsSnapshot;
import dev.polite.okhttp.PoliteInterceptor;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;
import jdk.jfr.consumer.RecordedEvent;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import org.junit.jupiter.api.Test;

/**
 * How most Java 21+ services will call polite: {@code execute()} on virtual threads. 10,000 of
 * them each make one call through ONE polite-wrapped OkHttpClient against the demo server's token
 * bucket ({@code polite.vt.rate} per second, with as big a burst; polite is told nothing and
 * learns it from the first answer's IETF headers). The run must finish within 1.1 times the
 * floor, on at most cores + 4 carrier threads, and with no virtual thread pinned in polite's
 * waits. A virtual thread waits in polite by parking: in the {@code Sleeper} for its tokens, and
 * at the key's gate until an answer signals it (the gate was {@code Object.wait} on the key's
 * monitor until this test found that JDK 25 pins it there: docs/threads-and-async.md). A wait that held its
 * carrier would leave the call whose answer ends the wait none to run on.
 *
 * <p>The floor: the bucket holds R (= the rate) tokens at the start and refills R a second, so
 * the first R calls go at once and call N at (N - R) / R s; 10,000 calls at CI's 200/s take at
 * least 49 s, at the issue's 50/s ({@code -Dpolite.vt.rate=50}) 199 s.
 */
final class VirtualThreadsTest {
  private static final int THREADS = Integer.getInteger("polite.vt.threads", 10_000);
  private static final int RATE = Integer.getInteger("polite.vt.rate", 200);
  /**
   * The issue's bound, 1.1. {@code .ci/run} passes 1.25: its run is at 200/s, where a fixed cost
   * (each whole-second pause of a spent quota) weighs four times what it does in the 50/s run,
   * and shared CI machines have measured 1.10 to 1.15 there. A stall (the carrier pinning this
   * test found made one call in 120 s) misses either bound by far.
   */
  private static final double MOST_OVER_FLOOR = Double.parseDouble(System.getProperty("polite.vt.most", "1.1"));
  /** Carriers the scheduler may add beyond one per core before a wait counts as holding one. */
  private static final int SPARE_CARRIERS = 4;
  private static final int WARM_UP_THREADS = 10;
  private static final int WARM_UP_RATE = 100;

  @Test
  void tenThousandVirtualThreadsRideTheLimitOnTheirCarriersUnpinned() throws Exception {
    int cores = Runtime.getRuntime().availableProcessors();
    double floorSeconds = Math.max(0, THREADS - RATE) / (double) RATE;
    // Every call must be granted: the last waits the whole floor, so let polite wait twice that.
    Duration maxWait = Duration.ofSeconds((long) (2 * floorSeconds) + 10);
    try (DemoServer server = DemoServer.builder().limit(RATE).window(Duration.ofSeconds(1)).start()) {
      OkHttpClient client = new OkHttpClient.Builder()
          .addInterceptor(PoliteInterceptor.builder().maxWait(maxWait).build())
          .build();
      warmUp(client);
      Request request = new Request.Builder().url(server.url() + "/api/items").build();

      Map<String, Integer> answers = new TreeMap<>();
      long elapsed;
      List<RecordedEvent> pinned;
      Pinning pinning = Pinning.record();
      try (pinning; Carriers carriers = Carriers.count()) {
        long start = System.nanoTime();
        List<Future<String>> calls = new ArrayList<>(THREADS);
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
          for (int i = 0; i < THREADS; i++) {
            calls.add(threads.submit(() -> call(client, request)));
          }
        } // close() waits for every call
        elapsed = System.nanoTime() - start;
        pinned = pinning.stop();
        carriers.close();
        for (Future<String> call : calls) {
          answers.merge(call.get(), 1, Integer::sum);
        }

        double seconds = elapsed / 1e9;
        StatsSnapshot stats = server.stats();
        System.out.printf("virtual threads: %,d calls on %,d virtual threads at %d/s (burst %d): %.1f s,"
                + " floor %.1f s (%.3fx); carriers at most %d (cores %d), platform threads at most %d;"
                + " pinned events %d: %d with polite's frames (class loading aside), %d polite loading"
                + " classes, %d OkHttp's;"
                + " answers %s; server admitted %d, refused %d; Java %s%n",
            THREADS, THREADS, RATE, RATE, seconds, floorSeconds, seconds / floorSeconds, carriers.most(),
            cores, carriers.mostPlatformThreads(), pinned.size(), pinning.polite().size(),
            pinning.politeLoadingClasses().size(), pinning.okHttp().size(), answers, stats.admitted(),
            stats.rejected(), Runtime.version());
        pinned.stream().limit(20).map(Pinning::describe).forEach(System.out::println);

        assertThat(answers).as("every call answered 200").containsOnlyKeys("200");
        assertThat(pinning.polite()).as("pinned in polite:\n%s",
                pinning.polite().stream().map(Pinning::describe).collect(Collectors.joining("\n")))
            .isEmpty();
        assertThat(carriers.most()).as("carrier threads, on %d cores", cores)
            .isLessThanOrEqualTo(cores + SPARE_CARRIERS);
        assertThat(seconds).as("time against the floor of %.1f s", floorSeconds)
            .isLessThanOrEqualTo(MOST_OVER_FLOOR * floorSeconds);
      }
    }
  }

  /**
   * Loads the classes the run will use, before the recording starts: the first thread to load or
   * initialize a class pins any other that needs it meanwhile (the JVM's class loading, whoever
   * calls; {@link Pinning}), and 10,000 threads starting at once would show each of OkHttp's and
   * polite's first-call classes as a pin. {@value #WARM_UP_THREADS} threads call a server of its
   * own (so another key: the run's key starts cold, its gate shut until the first answer) at
   * {@value #WARM_UP_RATE} a second with a burst of 1, so that they wait both at the gate and for
   * tokens: a tenth of a second.
   */
  private static void warmUp(OkHttpClient client) throws Exception {
    try (DemoServer server = DemoServer.builder().limit(WARM_UP_RATE).window(Duration.ofSeconds(1))
            .burst(1).start();
        ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
      Request request = new Request.Builder().url(server.url() + "/api/warm-up").build();
      List<Future<String>> calls = new ArrayList<>();
      for (int i = 0; i < WARM_UP_THREADS; i++) {
        calls.add(threads.submit(() -> call(client, request)));
      }
      for (Future<String> call : calls) {
        assertThat(call.get()).as("a warm-up call").isEqualTo("200");
      }
    }
  }

  /** The answer's status, or what the call threw instead (so one failure does not hide the rest). */
  private static String call(OkHttpClient client, Request request) {
    try (Response response = client.newCall(request).execute()) {
      response.body().string();
      return String.valueOf(response.code());
    } catch (IOException e) {
      return e.getClass().getSimpleName() + ": " + e.getMessage().replaceAll("[0-9.]+", "#");
    }
  }

  /**
   * The recorder sees a pin when there is one: a virtual thread that parks inside a class's
   * static initializer is pinned (the VM runs initializers through a native frame, which even
   * JDK 24's JEP 491 cannot unmount), so an empty result above is not a recorder that hears
   * nothing.
   */
  @Test
  void theRecorderSeesAPinnedPark() throws Exception {
    List<RecordedEvent> pinned;
    try (Pinning pinning = Pinning.record()) {
      Thread parked = Thread.ofVirtual().start(ParksInItsInitializer::touch);
      parked.join(TimeUnit.SECONDS.toMillis(10));
      assertThat(parked.isAlive()).isFalse();
      pinned = pinning.stop();
    }
    assertThat(pinned).as("pinned events").isNotEmpty();
    assertThat(pinned).allSatisfy(event -> assertThat(Pinning.inPolite(event)).isFalse());
  }

  /** Parks 20 ms while being initialized. */
  private static final class ParksInItsInitializer {
    static {
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
    }

    static void touch() {}
  }
}
