package dev.polite.examples.nodes;

import java.io.IOException;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntConsumer;
import okhttp3.Call;
import okhttp3.Callback;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;

/**
 * The {@code nodes} command's client: an open-loop sender at a fixed rate, evenly spaced, each
 * request going to the next of {@code reach} nodes round robin (or to a random node of all, with
 * a fixed seed), and the very same request sent to every lane at the same moment, so the lanes
 * are compared on the same traffic. Warm-up seconds come first and are not counted; counting
 * starts on a whole second of the wall clock, where the servers' fixed windows turn.
 *
 * <p>Open loop on purpose: a client that waited for each answer would send less to a slow lane
 * (the shared one pays a Redis round trip) and so make it look better.
 */
final class NodeTraffic {
  private static final long SECOND = 1_000_000_000L;

  private final OkHttpClient http;
  private final List<NodeLane> lanes;
  private final double rate;
  private final int reach;
  private final boolean random;
  private final AtomicLong outstanding = new AtomicLong();
  private volatile long maxLagNanos;

  /**
   * @param rate requests per second, per lane
   * @param reach how many of each lane's nodes the client reaches (round robin), from the first
   * @param random whether each request goes to a random node of all instead (seed 42)
   */
  NodeTraffic(OkHttpClient http, List<NodeLane> lanes, double rate, int reach, boolean random) {
    this.http = http;
    this.lanes = lanes;
    this.rate = rate;
    this.reach = reach;
    this.random = random;
  }

  /**
   * Sends for {@code warmup + seconds} seconds and returns once every answer is in (or 10 s after
   * the last request, for an answer that never comes). {@code onSecond} is told each counted
   * second as it starts, on a thread of its own, so what it does (freezing Redis) never delays
   * the sender.
   */
  void run(int warmup, int seconds, IntConsumer onSecond) throws InterruptedException {
    ExecutorService events = Executors.newSingleThreadExecutor(task -> {
      Thread thread = new Thread(task, "nodes-events");
      thread.setDaemon(true);
      return thread;
    });
    Random nodes = new Random(42);
    long epochNow = System.currentTimeMillis();
    long nanoNow = System.nanoTime();
    long startEpochMillis = (epochNow / 1000 + 1) * 1000;
    long start = nanoNow + (startEpochMillis - epochNow) * 1_000_000;
    long total = Math.round(rate * (warmup + seconds));
    int lastSecond = Integer.MIN_VALUE;
    try {
      for (long i = 0; i < total; i++) {
        long target = start + Math.round(i * SECOND / rate);
        long wait;
        while ((wait = target - System.nanoTime()) > 0) {
          LockSupport.parkNanos(wait);
        }
        // Counted by when the request left, which is the window the servers count it in, even when
        // a busy machine made the sender late.
        // A warm-up request stays uncounted however late it leaves.
        long sentAt = Math.max(target, System.nanoTime());
        int second = target - start < warmup * SECOND ? -1 : (int) ((sentAt - start) / SECOND) - warmup;
        if (second >= 0) { // the warm-up's lag is the JVM's first use, not the machine's capacity
          maxLagNanos = Math.max(maxLagNanos, -wait);
        }
        if (second >= seconds) {
          break; // a late sender does not spill into a second nobody counts
        }
        if (second != lastSecond && second >= 0) {
          int told = second;
          events.execute(() -> onSecond.accept(told));
        }
        lastSecond = second;
        int node = random ? nodes.nextInt(lanes.get(0).size()) : (int) (i % reach);
        for (NodeLane lane : lanes) {
          send(lane, node, second);
        }
      }
      long deadline = System.nanoTime() + 10 * SECOND;
      while (outstanding.get() > 0 && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
    } finally {
      events.shutdown();
      events.awaitTermination(10, TimeUnit.SECONDS);
    }
  }

  /**
   * How late the sender ran at worst in the counted seconds: a lag near a second means this
   * machine could not drive the rate (then lower it with {@code --scale}).
   */
  double maxLagMillis() {
    return maxLagNanos / 1e6;
  }

  private void send(NodeLane lane, int node, int second) {
    // Warm-up requests use a key of their own: one that leaves late must not spend the quota of
    // the first counted window.
    String key = second < 0 ? lane.apiKey() + "-warm-up" : lane.apiKey();
    Request request = new Request.Builder().url(lane.url(node)).header("X-Api-Key", key).build();
    long sent = System.nanoTime();
    outstanding.incrementAndGet();
    http.newCall(request).enqueue(new Callback() {
      @Override
      public void onResponse(Call call, Response response) {
        try (response) {
          lane.record(second, response.code(), System.nanoTime() - sent);
        } finally {
          outstanding.decrementAndGet();
        }
      }

      @Override
      public void onFailure(Call call, IOException e) {
        lane.record(second, 0, System.nanoTime() - sent);
        outstanding.decrementAndGet();
      }
    });
  }
}
