package dev.polite.vthreads;

import static org.assertj.core.api.Assertions.assertThat;

import dev.polite.demo.DemoServer;
import dev.polite.jdk.PoliteHttpClient;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse.BodyHandlers;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The JDK client's {@code send} on virtual threads, as {@link VirtualThreadsTest} runs OkHttp's
 * {@code execute()}: {@code polite.vt.jdk.threads} virtual threads (2,000) each make one call
 * through one {@link PoliteHttpClient}, told nothing, against the demo server's token bucket at
 * {@code polite.vt.rate} a second: every call answers 200, none is pinned in polite's waits, and
 * the carriers stay at most cores + 4. Its floor, (threads - rate) / rate s, is 9 s at CI's rate.
 */
final class JdkClientOnVirtualThreadsTest {
  private static final int THREADS = Integer.getInteger("polite.vt.jdk.threads", 2_000);
  private static final int RATE = Integer.getInteger("polite.vt.rate", 200);
  private static final int SPARE_CARRIERS = 4;

  @Test
  void virtualThreadsSendingThroughThePoliteJdkClientRideTheLimitUnpinned() throws Exception {
    int cores = Runtime.getRuntime().availableProcessors();
    double floorSeconds = Math.max(0, THREADS - RATE) / (double) RATE;
    try (DemoServer server = DemoServer.builder().limit(RATE).window(Duration.ofSeconds(1)).start()) {
      HttpClient client = PoliteHttpClient.builder(HttpClient.newHttpClient())
          .maxWait(Duration.ofSeconds((long) (2 * floorSeconds) + 10)).build();
      HttpRequest warmUp = HttpRequest.newBuilder(URI.create(server.url() + "/api/warm-up")).build();
      assertThat(send(client, warmUp)).as("the classes of the run loaded before it").isEqualTo("200");
      HttpRequest request = HttpRequest.newBuilder(URI.create(server.url() + "/api/items")).build();

      Map<String, Integer> answers = new TreeMap<>();
      Pinning pinning = Pinning.record();
      try (pinning; Carriers carriers = Carriers.count()) {
        long start = System.nanoTime();
        List<Future<String>> calls = new ArrayList<>(THREADS);
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
          for (int i = 0; i < THREADS; i++) {
            calls.add(threads.submit(() -> send(client, request)));
          }
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        pinning.stop();
        carriers.close();
        for (Future<String> call : calls) {
          answers.merge(call.get(), 1, Integer::sum);
        }
        System.out.printf("virtual threads on the JDK client: %,d sends at %d/s: %.1f s, floor %.1f s;"
                + " carriers at most %d (cores %d); pinned in polite %d; answers %s%n",
            THREADS, RATE, seconds, floorSeconds, carriers.most(), cores, pinning.polite().size(),
            answers);

        assertThat(answers).as("every call answered 200").containsOnlyKeys("200");
        assertThat(pinning.polite()).as("pinned in polite:\n%s",
                pinning.polite().stream().map(Pinning::describe).collect(Collectors.joining("\n")))
            .isEmpty();
        assertThat(carriers.most()).as("carrier threads, on %d cores", cores)
            .isLessThanOrEqualTo(cores + SPARE_CARRIERS);
      }
    }
  }

  /** The answer's status, or what the send threw instead (so one failure does not hide the rest). */
  private static String send(HttpClient client, HttpRequest request) {
    try {
      return String.valueOf(client.send(request, BodyHandlers.discarding()).statusCode());
    } catch (IOException e) {
      return e.getClass().getSimpleName() + ": " + String.valueOf(e.getMessage()).replaceAll("[0-9.]+", "#");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "interrupted";
    }
  }
}
