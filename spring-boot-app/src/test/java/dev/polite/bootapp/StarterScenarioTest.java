package dev.polite.bootapp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.polite.demo.Algorithm;
import dev.polite.demo.DemoServer;
import dev.polite.demo.DemoServerConfig;
import dev.polite.demo.HeaderStyle;
import dev.polite.demo.StatsSnapshot;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The Boot application ({@link VendorApp}) as its users run it, three ways: with nothing added
 * (polite's auto-configuration excluded, as if the starter were not on the class path), with
 * Spring's {@code @Retryable} on {@code TooManyRequests} ({@link RetryingItems}), and with only
 * {@code polite-spring-boot-starter} added. Each calls a server that limits it: the demo server (a
 * token bucket that says the IETF RateLimit fields) and a stand-in vendor API (a fixed window that
 * says GitHub's x-ratelimit headers). Prints the table the README quotes; holds polite's rows to
 * the zoo's targets (every call answered, at most max(3, 10 %) refused) and the bare client's to
 * what it is (it fails calls), and polite to fewer refusals than {@code @Retryable}.
 */
class StarterScenarioTest {
  private static final int CALLS = 60;
  private static final int CALLERS = 8;
  private static final long LIMIT_SECONDS = 120;

  /** A server shape of the scenario: its builder, and the least time its limit allows for the calls. */
  private record Shape(String name, DemoServerConfig.Builder server, double floorSeconds) {}

  /** A way of calling: its name, whether polite's starter is on, and which service it calls. */
  private record Way(String name, boolean polite, BiFunction<ConfigurableApplicationContext, Integer, String> call) {}

  private record Row(String shape, String way, int ok, Map<String, Integer> failures, long rejected, long sent,
      double seconds, double floor) {
    int failed() {
      return failures.values().stream().mapToInt(Integer::intValue).sum();
    }
  }

  @Test
  void onlyTheStarterAddedAnswersEveryCallWithFewRefusals() throws Exception {
    List<Shape> shapes = List.of(
        // 10 a second, a burst of 10: 60 calls take at least 5 s
        new Shape("demo server, token bucket, IETF RateLimit", DemoServer.builder().limit(10)
            .window(Duration.ofSeconds(1)).burst(10), 5.0),
        // 20 per fixed 2 s window, GitHub's headers: 60 calls take at least 4 s
        new Shape("vendor stand-in, fixed window, x-ratelimit", DemoServer.builder()
            .algorithm(Algorithm.FIXED_WINDOW).limit(20).window(Duration.ofSeconds(2))
            .headers(HeaderStyle.X_RATELIMIT), 4.0));
    List<Way> ways = List.of(
        new Way("RestClient, nothing added", false, (context, i) -> context.getBean(Items.class).get(i)),
        new Way("RestClient + @Retryable", false, (context, i) -> context.getBean(RetryingItems.class).get(i)),
        new Way("RestClient + polite starter", true, (context, i) -> context.getBean(Items.class).get(i)));

    List<Row> rows = new ArrayList<>();
    for (Shape shape : shapes) {
      for (Way way : ways) {
        rows.add(run(shape, way));
      }
    }
    System.out.println(render(rows));

    for (Shape shape : shapes) {
      Row bare = row(rows, shape, ways.get(0));
      Row retryable = row(rows, shape, ways.get(1));
      Row polite = row(rows, shape, ways.get(2));
      assertThat(polite.ok()).as(shape.name() + ": every call answered with the starter").isEqualTo(CALLS);
      assertThat(polite.rejected()).as(shape.name() + ": refusals with the starter")
          .isLessThanOrEqualTo(Math.max(3, CALLS / 10));
      assertThat(bare.failed()).as(shape.name() + ": the bare client hands refusals to the caller").isPositive();
      assertThat(polite.rejected()).as(shape.name() + ": fewer refusals than @Retryable's")
          .isLessThan(retryable.rejected());
    }
  }

  private static Row row(List<Row> rows, Shape shape, Way way) {
    return rows.stream().filter(r -> r.shape().equals(shape.name()) && r.way().equals(way.name())).findFirst()
        .orElseThrow();
  }

  /** One way against a fresh server of the shape: the application started, its calls made, stopped. */
  private static Row run(Shape shape, Way way) throws Exception {
    try (DemoServer server = shape.server().start()) {
      List<String> properties = new ArrayList<>(List.of("vendor.url=" + server.url()));
      if (!way.polite()) {
        properties.add("spring.autoconfigure.exclude=dev.polite.spring.boot.PoliteAutoConfiguration");
      }
      try (ConfigurableApplicationContext context = new SpringApplicationBuilder(VendorApp.class)
          .properties(properties.toArray(String[]::new)).run()) {
        ExecutorService callers = Executors.newFixedThreadPool(CALLERS);
        try {
          long start = System.nanoTime();
          List<Future<String>> calls = new ArrayList<>();
          for (int i = 0; i < CALLS; i++) {
            int index = i;
            calls.add(callers.submit(() -> way.call().apply(context, index)));
          }
          int ok = 0;
          Map<String, Integer> failures = new TreeMap<>();
          long deadline = start + TimeUnit.SECONDS.toNanos(LIMIT_SECONDS);
          for (Future<String> call : calls) {
            try {
              call.get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
              ok++;
            } catch (ExecutionException e) {
              failures.merge(e.getCause().getClass().getSimpleName(), 1, Integer::sum);
            }
          }
          double seconds = (System.nanoTime() - start) / 1e9;
          StatsSnapshot stats = server.stats();
          return new Row(shape.name(), way.name(), ok, failures, stats.rejected(), stats.admitted() + stats.rejected(),
              seconds, shape.floorSeconds());
        } finally {
          callers.shutdownNow();
        }
      }
    }
  }

  private static String render(List<Row> rows) {
    int shapeWidth = rows.stream().mapToInt(r -> r.shape().length()).max().orElse(5);
    int wayWidth = rows.stream().mapToInt(r -> r.way().length()).max().orElse(3);
    StringBuilder s = new StringBuilder(String.format(Locale.ROOT,
        "%d calls, %d callers%n%-" + shapeWidth + "s  %-" + wayWidth + "s  %6s  %6s  %8s  %4s  %7s  %5s%n",
        CALLS, CALLERS, "server", "way", "ok", "failed", "refused", "sent", "seconds", "floor"));
    for (Row r : rows) {
      s.append(String.format(Locale.ROOT, "%-" + shapeWidth + "s  %-" + wayWidth + "s  %6s  %6d  %8d  %4d  %7.1f  %5.1f",
          r.shape(), r.way(), r.ok() + "/" + CALLS, r.failed(), r.rejected(), r.sent(), r.seconds(), r.floor()));
      if (!r.failures().isEmpty()) {
        s.append("  ").append(r.failures());
      }
      s.append('\n');
    }
    return s.toString();
  }
}
