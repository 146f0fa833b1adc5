package dev.polite.examples.nodes;

import dev.polite.demo.DemoServer;
import dev.polite.demo.DemoServerConfig;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import okhttp3.HttpUrl;
import org.jspecify.annotations.Nullable;

/**
 * One design of the {@code nodes} command: N real demo servers in this process, configured alike
 * (each alone, each with a share, shared in Redis, or synced every S), and what the client's
 * requests to them came back with. Every lane gets its own API key, so lanes that share one
 * Redis never share a key there.
 */
final class NodeLane implements AutoCloseable {
  private final String name;
  private final @Nullable Double reference;
  private final String apiKey;
  private final List<DemoServer> nodes;
  private final List<HttpUrl> urls;
  private final AtomicLong admitted = new AtomicLong();
  private final AtomicLong rejected = new AtomicLong();
  private final AtomicLong failed = new AtomicLong();
  private final AtomicLongArray admittedPerSecond;
  private final long[] latencies;
  private final AtomicLong latencyCount = new AtomicLong();

  private NodeLane(String name, @Nullable Double reference, String apiKey, List<DemoServer> nodes, int seconds,
      int expectedRequests) {
    this.name = name;
    this.reference = reference;
    this.apiKey = apiKey;
    this.nodes = nodes;
    this.urls = nodes.stream().map(node -> HttpUrl.get(node.url().resolve("/api/nodes"))).toList();
    this.admittedPerSecond = new AtomicLongArray(seconds);
    this.latencies = new long[Math.max(1, expectedRequests)];
  }

  /**
   * Starts {@code count} nodes from {@code config} (each on a free port).
   *
   * @param reference the reference's admitted per second for this lane, when it states one
   * @param seconds the counted seconds, for the per-second counts
   * @param expectedRequests about how many requests the lane will be sent, for the latencies kept
   */
  static NodeLane start(String name, @Nullable Double reference, String apiKey, int count,
      DemoServerConfig.Builder config, int seconds, int expectedRequests) {
    List<DemoServer> nodes = new ArrayList<>();
    try {
      for (int i = 0; i < count; i++) {
        nodes.add(config.port(0).start());
      }
    } catch (RuntimeException e) {
      nodes.forEach(DemoServer::close);
      throw e;
    }
    return new NodeLane(name, reference, apiKey, nodes, seconds, expectedRequests);
  }

  String name() {
    return name;
  }

  @Nullable Double reference() {
    return reference;
  }

  String apiKey() {
    return apiKey;
  }

  /** The URL of a limited path on node {@code index}. */
  HttpUrl url(int index) {
    return urls.get(index);
  }

  int size() {
    return nodes.size();
  }

  /**
   * One answer: {@code second} is the counted second the request was scheduled in (negative while
   * warming up, which is not counted), {@code status} 0 for a call that failed.
   */
  void record(int second, int status, long latencyNanos) {
    if (second < 0) {
      return;
    }
    if (status == 200) {
      admitted.incrementAndGet();
      admittedPerSecond.incrementAndGet(Math.min(second, admittedPerSecond.length() - 1));
    } else if (status == 429) {
      rejected.incrementAndGet();
    } else {
      failed.incrementAndGet();
    }
    long slot = latencyCount.getAndIncrement();
    if (slot < latencies.length) {
      latencies[(int) slot] = latencyNanos;
    }
  }

  long admitted() {
    return admitted.get();
  }

  long rejected() {
    return rejected.get();
  }

  long failed() {
    return failed.get();
  }

  /** Admitted in counted seconds {@code from} (inclusive) to {@code to} (exclusive), per second. */
  double admittedPerSecond(int from, int to) {
    long sum = 0;
    for (int s = from; s < to; s++) {
      sum += admittedPerSecond.get(s);
    }
    return to > from ? (double) sum / (to - from) : 0;
  }

  /** Admitted in each counted second. */
  long[] admittedEachSecond() {
    long[] each = new long[admittedPerSecond.length()];
    for (int s = 0; s < each.length; s++) {
      each[s] = admittedPerSecond.get(s);
    }
    return each;
  }

  /** The latency at quantile {@code q} (0.5 for the median) of the recorded answers, in milliseconds. */
  double latencyMillis(double q) {
    int n = (int) Math.min(latencyCount.get(), latencies.length);
    if (n == 0) {
      return 0;
    }
    long[] sorted = Arrays.copyOf(latencies, n);
    Arrays.sort(sorted);
    return sorted[Math.min(n - 1, (int) Math.floor(q * n))] / 1e6;
  }

  @Override
  public void close() {
    nodes.forEach(DemoServer::close);
  }
}
