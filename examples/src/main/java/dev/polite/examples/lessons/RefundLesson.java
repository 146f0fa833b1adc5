package dev.polite.examples.lessons;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.polite.RequestCost;
import dev.polite.demo.DemoServer;
import dev.polite.demo.HeaderStyle;
import dev.polite.okhttp.PoliteInterceptor;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * The reference's reserve-and-refund lesson, on both sides, on real parts.
 *
 * <p>The server: the demo server at 10,000 units a minute, each request naming its cost in
 * {@code X-Cost} ({@code --cost-header}): reserve 4,000 (6,000 left); a 7,000 call is refused,
 * retry in 6.0 s; the unused 2,400 given back (8,400 left); the 7,000 call allowed. Its clock is
 * held still for these four requests, as the reference's was.
 *
 * <p>The client: polite paced at the same 10,000 a minute (the server says nothing in headers,
 * so polite keeps its own count) makes the same reserve of 4,000, of which the answer says 1,600
 * were used, and gives the 2,400 back to the server. Then a 7,000 call: when the client settled
 * its reservation too ({@link RequestCost#settle}), it goes at once; when it did not, polite
 * still counts the 4,000 as spent and waits 6.0 s for tokens nobody used.
 *
 * <p>Usage: {@code java -jar polite-examples.jar lessons refund [--json]}
 */
@Command(name = "refund",
    description = {"Reserve, then refund, on both sides: the demo server at 10,000 units a minute with "
        + "X-Cost (reserve 4,000; a 7,000 call; refund 2,400; the 7,000 call again), then a polite client "
        + "that settles its reservation (RequestCost.settle) against one that does not: the wait it saves.",
        "With --json: one object per step."},
    usageHelpAutoWidth = true)
final class RefundLesson implements Callable<Integer> {
  static final long QUOTA = 10_000;
  static final Duration WINDOW = Duration.ofMinutes(1);
  static final String COST = "X-Cost";
  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * One measured step beside the reference's figure.
   *
   * @param side {@code server} or {@code client}
   * @param step what was done
   * @param ours what happened here
   * @param reference what the reference printed
   * @param value the step's number (units left, or seconds waited), for tests and JSON
   */
  public record Row(String side, String step, String ours, String reference, double value) {}

  private final OkHttpClient plain = new OkHttpClient();

  @Mixin
  LessonOptions options;

  @Override
  public Integer call() throws IOException {
    LessonOutput out = options.output();
    out.text("refund: 10,000 units a minute; a request names its cost in X-Cost, a negative one gives units back");
    for (Row row : run()) {
      out.row(String.format(Locale.ROOT, "  %-7s %-34s %-32s (reference: %s)", row.side(), row.step(),
              row.ours(), row.reference()),
          LessonOutput.fields("lesson", "refund", "side", row.side(), "step", row.step(), "ours", row.ours(),
              "value", row.value(), "reference", row.reference()));
    }
    out.text("");
    out.text("The server gives back what a request reserved and did not use; the client must too, or it waits");
    out.text("for tokens nobody used: RequestCost.reserve(4_000) as the request's tag, then cost.settle(1_600).");
    return 0;
  }

  /** Runs both sides against fresh demo servers; takes about 7 s (one real 6 s wait). */
  public List<Row> run() throws IOException {
    List<Row> rows = new ArrayList<>();
    server(rows);
    client(rows, true);
    client(rows, false);
    return rows;
  }

  private void server(List<Row> rows) throws IOException {
    // The server's clock held still, as in the reference's run, so its figures are exact: on a
    // running clock the few milliseconds between the requests refill a unit or two a time.
    Clock still = Clock.fixed(Instant.now(), ZoneOffset.UTC);
    try (DemoServer server = DemoServer.builder().limit(QUOTA).window(WINDOW).costHeader(COST)
        .clock(still).start()) {
      String url = server.url() + "/api/chat";
      Answer reserve = send(plain, url, 4_000, null);
      rows.add(new Row("server", "reserve 4,000 of 10,000", reserve.left() + " left",
          "6,000 left", reserve.remaining));
      Answer big = send(plain, url, 7_000, null);
      rows.add(new Row("server", "a 7,000 call", big.code == 429
          ? "429, retry in " + big.retryAfter + " s" : big.code + " (expected 429)",
          "429, retry in 6.0 s", big.retryAfter));
      Answer refund = send(plain, url, -2_400, null);
      rows.add(new Row("server", "refund the unused 2,400", refund.left() + " left",
          "8,400 left", refund.remaining));
      Answer again = send(plain, url, 7_000, null);
      rows.add(new Row("server", "the 7,000 call again", again.code == 200
          ? "allowed, " + again.left() + " left" : again.code + " (expected 200)", "allowed",
          again.remaining));
    }
  }

  /** One client run: reserve, use 1,600, refund the server; then the 7,000 call, timed. */
  private void client(List<Row> rows, boolean settle) throws IOException {
    try (DemoServer server = DemoServer.builder().limit(QUOTA).window(WINDOW).costHeader(COST)
        .headers(HeaderStyle.NONE).start()) {
      OkHttpClient polite = plain.newBuilder()
          .addInterceptor(PoliteInterceptor.builder()
              .startingRate(QUOTA / (double) WINDOW.toSeconds()).startingBurst(QUOTA)
              .maxWait(Duration.ofSeconds(30)).build())
          .build();
      String url = server.url() + "/api/chat";
      RequestCost reserved = RequestCost.reserve(4_000);
      send(polite, url, 4_000, reserved);
      long used = 1_600; // what the answer's usage would say
      send(plain, url, -(4_000 - used), null); // the server gets its refund either way
      if (settle) {
        reserved.settle(used);
      }
      long start = System.nanoTime();
      Answer big = send(polite, url, 7_000, RequestCost.of(7_000));
      double waited = (System.nanoTime() - start) / 1e9;
      String ours = String.format(Locale.ROOT, "%s after waiting %.1f s", big.code == 200 ? "allowed"
          : big.code + "", waited);
      rows.add(settle
          ? new Row("client", "settled: the next 7,000 call", ours, "allowed after the refund", waited)
          : new Row("client", "not settled: the next 7,000 call", ours,
              "retry in 6.0 s, unrefunded", waited));
    }
  }

  private record Answer(int code, long remaining, double retryAfter) {
    String left() {
      return String.format(Locale.ROOT, "%,d", remaining);
    }
  }

  private static Answer send(OkHttpClient client, String url, long cost, RequestCost tag)
      throws IOException {
    Request.Builder request = new Request.Builder().url(url).header(COST, Long.toString(cost));
    if (tag != null) {
      request.tag(RequestCost.class, tag);
    }
    try (Response response = client.newCall(request.build()).execute()) {
      String body = response.body().string();
      long remaining = -1;
      if (response.code() == 200) {
        JsonNode json = JSON.readTree(body);
        remaining = json.path("remaining").asLong(-1);
      }
      String retryAfter = response.header("Retry-After");
      return new Answer(response.code(), remaining, retryAfter == null ? 0 : Double.parseDouble(retryAfter));
    }
  }
}
