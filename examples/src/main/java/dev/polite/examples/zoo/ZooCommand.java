package dev.polite.examples.zoo;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.polite.examples.Executables;
import dev.polite.examples.HtmlPage;
import dev.polite.examples.ProgressLine;
import dev.polite.examples.clients.ClientKind;
import dev.polite.examples.clients.ClientKindConverter;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.Function;
import okhttp3.OkHttpClient;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code zoo}: every client against a matrix of real limiters on loopback, one cell at a time,
 * each judged against its floor. The demo server's token bucket in every header dialect, its
 * window and queueing algorithms, the shapes of a limit (a cap on calls in flight, GitHub's 403s,
 * a wrong reset now and then, a spent quota, two budgets on one host, named or not, two policies in
 * one field, a block that early calls restart, a limiter that refuses everything, refusals with
 * unusable hints) and HAProxy (when installed),
 * at 1, 4, 16 and 64 callers.
 * Prints one row per cell (or one JSON object, then a summary), writes a one-page HTML report, and
 * with {@code --quick} is the CI gate: it exits 1 when a cell of polite's (on OkHttp or on the JDK's
 * client) loses a call, exceeds the
 * rejection allowance or takes more than twice its floor.
 *
 * <p>Usage: {@code java -jar polite-examples.jar zoo --quick --report /tmp/zoo.html}
 */
@Command(name = "zoo",
    description = {
        "Runs clients against a zoo of rate limiters on loopback (the demo server's token bucket in every header "
            + "dialect, fixed window, sliding log, queueing leaky bucket, and HAProxy when installed), "
            + "one cell at a time, each with a fresh server and client, all at 20 requests per second; "
            + "then the shapes of a limit: a cap of 2 calls in flight (429 or GitHub's 403), a wrong reset "
            + "now and then, a quota of 20 an hour that the cell spends, one host with two budgets (core 20 per "
            + "second, /api/search its own 5 per second, 1 call in 4; named in the answers, or not), two policies "
            + "in one field (the bucket and 60 per 5 s), a block of 1 s that each early call restarts, a limiter "
            + "that refuses everything, and every 10th answer a refusal saying 'come back in a day'.",
        "Prints one row per cell with its floor (the least time any client could take without a rejection) "
            + "and a verdict: ok when every call succeeded, rejections <= max(3, 10%% of requests) and "
            + "time <= 1.3 x floor (the spent quota: exactly its 20 succeeded, <= 2 rejections, <= 3 s; the "
            + "limiter that refuses everything: none succeeded, <= max(3, 10%%) rejections, <= 3 s; the unusable "
            + "hints: the refused calls may be given up). "
            + "Writes an HTML report.",
        "With --quick: polite, on OkHttp and on the JDK's HttpClient, on the cells that matter most, and on "
            + "Spring's RestClient and WebClient and HttpClient 5 on four, in about four and a half minutes; exits 1 "
            + "when a cell of any of them loses a call, is refused too often or takes over 2 x its floor."},
    usageHelpAutoWidth = true, sortOptions = false)
public final class ZooCommand implements Callable<Integer> {
  private final Function<String, Optional<Path>> lookup;

  @Spec
  CommandSpec spec;

  @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
  boolean help;

  @Option(names = "--quick", description = "The cells that matter most, polite and polite-jdk (plus polite-adaptive "
      + "on one, and polite-spring, polite-webclient and polite-hc5 on four), "
      + ZooMatrix.QUICK_REQUESTS + " requests each; the CI gate.")
  boolean quick;

  @Option(names = "--clients", paramLabel = "CLIENT", split = ",", converter = ClientKindConverter.class,
      description = "Clients to run, comma-separated, in this order (default: polite, polite-jdk, polite-adaptive, "
          + "then every peer; with --quick: polite and polite-jdk, and polite on the other engines on four cells). "
          + "polite on the other engines runs in the full zoo when named: "
          + "polite-spring and polite-spring-hc5 (RestClient on the JDK's and HttpClient 5's request factories), "
          + "polite-webclient, polite-hc5.")
  List<ClientKind> clients = new ArrayList<>();

  @Option(names = "--servers", paramLabel = "FILTER", split = ",",
      description = "Only the limiters whose name contains one of these, such as token-bucket,haproxy or /none "
          + "(names: token-bucket/ietf, fixed-window/none, leaky-queue/ietf, concurrency/github-403, "
          + "fixed-window/wrong-reset, quota/spent, budgets/x-ratelimit, budgets/unnamed, policies/ietf, "
          + "block/restarted, refuses/everything, hints/unusable, haproxy, ...).")
  List<String> servers = new ArrayList<>();

  @Option(names = "--concurrency", paramLabel = "C", split = ",",
      description = "Callers at once, comma-separated (default: 1,4,16,64; with --quick each cell's own).")
  List<Integer> concurrency = new ArrayList<>();

  @Option(names = "--every-cell", description = "Run every client on every limiter, not only where a peer's input differs.")
  boolean everyCell;

  @Option(names = "--report", paramLabel = "PATH", defaultValue = "polite-zoo.html",
      description = "Where to write the HTML report (default: ${DEFAULT-VALUE}).")
  Path report;

  @Option(names = "--async", description = "polite's clients make their calls without a thread each (waits hold "
      + "no thread): enqueue through a PoliteCallFactory, polite-jdk's sendAsync, polite-webclient's subscription, "
      + "polite-hc5's async client; "
      + "the peers, and RestClient (which has no async call), always block.")
  boolean async;

  @Option(names = "--json", description = "Print one JSON object per cell, then one summary object, instead of the table.")
  boolean json;

  /** The command as the jar runs it: HAProxy is looked up on the PATH. */
  public ZooCommand() {
    this(Executables::onPath);
  }

  /** @param lookup finds a program by name (tests pass one that finds nothing) */
  ZooCommand(Function<String, Optional<Path>> lookup) {
    this.lookup = lookup;
  }

  @Override
  public Integer call() throws Exception {
    for (int c : concurrency) {
      if (c < 1 || c > 1000) {
        throw new ParameterException(spec.commandLine(), "--concurrency must be 1 to 1000, was " + c);
      }
    }
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    ZooMatrix.Selection selection = new ZooMatrix.Selection(clients, servers, concurrency, everyCell);
    Optional<Path> haproxy = lookup.apply("haproxy");
    ZooMatrix matrix = quick ? ZooMatrix.quick(selection, haproxy) : ZooMatrix.full(selection, haproxy);
    ObjectMapper mapper = new ObjectMapper();
    if (!json) {
      out.println(intro(matrix));
      for (String note : matrix.notes()) {
        out.println("note: " + note);
      }
      out.println();
      out.println(ZooRow.HEADER);
      out.flush();
    }
    long start = System.nanoTime();
    ClientKind[] previous = {null};
    List<ZooRow> rows = new Zoo(new OkHttpClient(), async).run(matrix.cells(), row -> {
      if (json) {
        out.println(row.toJsonNode(mapper).toString());
      } else {
        if (previous[0] != null && previous[0] != row.cell().client()) {
          out.println();
        }
        out.println(row.tableRow());
      }
      previous[0] = row.cell().client();
      out.flush();
    }, ProgressLine.forConsole(err));
    double seconds = (System.nanoTime() - start) / 1e9;
    ZooReport.write(report, matrix, rows);
    List<ZooRow> missed = ZooGate.misses(rows);
    boolean gateFailed = matrix.quick() && !missed.isEmpty();
    if (json) {
      out.println(summary(mapper, matrix, rows, missed, seconds).toString());
      err.println("report: " + report.toAbsolutePath().normalize());
    } else {
      out.println();
      out.println(totals(rows, seconds));
      if (matrix.quick()) {
        out.println(missed.isEmpty() ? "gate: passed, every cell of " + gated() + " met its targets"
            : "gate: FAILED, " + gated() + " missed in " + missed.size() + " cell(s): "
                + String.join("; ", missed.stream().map(ZooGate::describe).toList()));
      }
      out.println("report: " + report.toAbsolutePath().normalize());
    }
    out.flush();
    if (gateFailed && json) {
      err.println("gate: FAILED, " + gated() + " missed in " + missed.size() + " cell(s)");
    }
    err.flush();
    return gateFailed ? 1 : 0;
  }

  private static String intro(ZooMatrix matrix) {
    List<ZooServer> servers = matrix.cells().stream().map(ZooCell::server).distinct().toList();
    long shaped = servers.stream().filter(ZooServer::shaped).count();
    String limits = shaped == 0 ? String.format(Locale.ROOT, "all %d requests per %d s", ZooMatrix.LIMIT,
        ZooMatrix.WINDOW.toSeconds())
        : shaped == servers.size() ? "the shapes of a limit (each row's own, in the report)"
            : String.format(Locale.ROOT, "%d requests per %d s but for the shapes of a limit (each row's own, "
                + "in the report)", ZooMatrix.LIMIT, ZooMatrix.WINDOW.toSeconds());
    StringBuilder intro = new StringBuilder(String.format(Locale.ROOT, "zoo%s: %s on %s, %s; %d requests per cell, "
            + "one cell at a time, each with a fresh server and client.%n"
            + "verdict ok: every call succeeded, at most %d rejected, time within %.1f x the floor "
            + "(the least time any client could take without a rejection).",
        matrix.quick() ? " --quick" : "", count(matrix.cells().size(), "cell"), count(servers.size(), "limiter"),
        limits, matrix.requests(), Verdict.rejectionAllowance(matrix.requests()), Verdict.SLOW_FACTOR));
    for (ZooServer server : servers) {
      String own = server.targets().explain(server.name(), matrix.requests());
      if (own != null) {
        intro.append(System.lineSeparator()).append(own);
      }
    }
    return intro.toString();
  }

  private static String totals(List<ZooRow> rows, double seconds) {
    long ok = rows.stream().filter(row -> row.verdict().ok()).count();
    StringBuilder totals = new StringBuilder(String.format(Locale.ROOT, "%s, %d ok; ", count(rows.size(), "cell"), ok));
    for (ClientKind client : ZooGate.GATED) { // those that ran
      List<ZooRow> own = rows.stream().filter(row -> row.cell().client() == client).toList();
      if (own.isEmpty()) {
        continue;
      }
      totals.append(String.format(Locale.ROOT, "%s %d of %d ok; ", client.cliName(),
          own.stream().filter(row -> row.verdict().ok()).count(), own.size()));
    }
    return totals.append(duration(seconds)).toString();
  }

  private static ObjectNode summary(ObjectMapper mapper, ZooMatrix matrix, List<ZooRow> rows, List<ZooRow> missed,
      double seconds) {
    ObjectNode node = mapper.createObjectNode();
    node.put("summary", true);
    node.put("quick", matrix.quick());
    node.put("cells", rows.size());
    node.put("ok", rows.stream().filter(row -> row.verdict().ok()).count());
    for (ClientKind client : ZooGate.GATED) { // polite_cells, polite_ok, polite_jdk_cells, polite_jdk_ok
      String name = client.cliName().replace('-', '_');
      node.put(name + "_cells", rows.stream().filter(row -> row.cell().client() == client).count());
      node.put(name + "_ok", rows.stream().filter(row -> row.cell().client() == client)
          .filter(row -> row.verdict().ok()).count());
    }
    ArrayNode gateMisses = node.putArray("gate_missed");
    missed.forEach(row -> gateMisses.add(ZooGate.describe(row)));
    if (matrix.quick()) {
      node.put("gate", missed.isEmpty() ? "passed" : "failed");
    }
    ArrayNode notes = node.putArray("notes");
    matrix.notes().forEach(notes::add);
    node.put("seconds", Math.round(seconds * 10) / 10.0);
    return node;
  }

  /** The gated clients, {@code polite and polite-jdk and ...}. */
  private static String gated() {
    return String.join(" and ", ZooGate.GATED.stream().map(ClientKind::cliName).toList());
  }

  private static String count(long n, String noun) {
    return n + " " + noun + (n == 1 ? "" : "s");
  }

  private static String duration(double seconds) {
    long whole = Math.round(seconds);
    return whole >= 60 ? String.format(Locale.ROOT, "%d min %d s", whole / 60, whole % 60) : whole + " s";
  }
}
