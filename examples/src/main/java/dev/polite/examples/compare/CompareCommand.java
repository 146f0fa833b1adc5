package dev.polite.examples.compare;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.polite.demo.Algorithm;
import dev.polite.demo.DemoServer;
import dev.polite.demo.HeaderStyle;
import dev.polite.examples.ProgressLine;
import dev.polite.examples.clients.ClientKind;
import dev.polite.examples.clients.ClientKindConverter;
import dev.polite.examples.load.LoadRunner;
import dev.polite.examples.load.RunResult;
import dev.polite.examples.load.WarmUp;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import okhttp3.HttpUrl;
import okhttp3.OkHttpClient;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code compare}: three clients people write by hand (retry at once, Retry-After with jitter, a
 * client-side bucket) against one rate limit, with polite and polite + adaptive throttling added.
 * Each client sends the same requests, one at a time, to a demo server of its own (token bucket,
 * burst 5, 5 per second, IETF headers): a fresh server per client starts every client with a full
 * bucket, so no client pays for the one before it. Prints the table, writes the HTML report, and
 * prints its path.
 *
 * <p>Usage: {@code java -jar polite-examples.jar compare --report /tmp/report.html}
 */
@Command(name = "compare",
    description = {
        "Runs the comparison: retry at once, Retry-After + jitter, a client-side bucket, polite, "
            + "and polite + adaptive throttling, each sending N requests one at a time to its own in-process demo server "
            + "(token bucket, burst 5, 5 per second, IETF RateLimit headers).",
        "Prints a table (or one JSON object per client with --json) and writes an HTML report."},
    usageHelpAutoWidth = true, sortOptions = false)
public final class CompareCommand implements Callable<Integer> {
  /** The server's limit: 5 per second. */
  public static final long SERVER_LIMIT = 5;
  /** The server's window: one second. */
  public static final Duration SERVER_WINDOW = Duration.ofSeconds(1);
  /** The server's burst: 5. */
  public static final long SERVER_BURST = 5;
  /** The paced client's rate, a little under the server's, as its user would set it. */
  public static final double PACED_RATE = 4.5;
  /**
   * The paced client's burst: one under the server's, as its rate is a little under the limit.
   * With equal bursts the margin is only the rates' difference (half a token a second), and a
   * request whose trip to the server is a few tens of milliseconds slower than the one before it
   * can land before the server's token does: on a busy machine the paced row then shows a refusal.
   */
  public static final double PACED_BURST = 4;
  /**
   * The clients compared, in the table's order: the three hand-written peers, polite, and polite
   * with adaptive throttling. {@link ClientKind#FAILSAFE} is not among them by default (the table
   * and the report keep these five); {@code --clients failsafe,...} adds it, numbered 6.
   */
  public static final List<ClientKind> CLIENTS = List.of(ClientKind.NAIVE, ClientKind.RETRY_AFTER,
      ClientKind.PACED, ClientKind.POLITE, ClientKind.POLITE_ADAPTIVE);

  @Spec
  CommandSpec spec;

  @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
  boolean help;

  @Option(names = "--requests", paramLabel = "N", defaultValue = "30",
      description = "Requests per client (default: ${DEFAULT-VALUE}).")
  int requests;

  @Option(names = "--report", paramLabel = "PATH", defaultValue = "polite-report.html",
      description = "Where to write the HTML report (default: ${DEFAULT-VALUE}).")
  Path report;

  @Option(names = "--clients", paramLabel = "CLIENT", split = ",", converter = ClientKindConverter.class,
      description = "Which clients to run, comma-separated (default: the five, in order: naive,retry-after,paced,polite,polite-adaptive; "
          + "failsafe, OkHttp + Failsafe by hand, may be added).")
  List<ClientKind> clients;

  @Option(names = "--json", description = "Print one JSON object per client instead of the table.")
  boolean json;

  @Override
  public Integer call() throws Exception {
    if (requests < 1) {
      throw new ParameterException(spec.commandLine(), "--requests must be at least 1, was " + requests);
    }
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    List<ClientKind> kinds = clients == null || clients.isEmpty() ? CLIENTS : clients;
    ObjectMapper mapper = new ObjectMapper();
    ProgressLine progress = ProgressLine.forConsole(err);
    OkHttpClient base = new OkHttpClient();
    if (!json) {
      out.printf("%d requests per client, one at a time, each client against its own server: "
          + "token bucket, burst %d, %d per second, IETF RateLimit headers.%n%n", requests, SERVER_BURST, SERVER_LIMIT);
      out.flush();
    }
    WarmUp.clients(base, kinds, PACED_RATE, PACED_BURST);
    int width = 28; // the three peers' labels fit; wider when a label needs it (the fifth's does)
    for (ClientKind kind : kinds) {
      width = Math.max(width, label(kind).length());
    }
    List<ComparedRun> runs = new ArrayList<>();
    for (ClientKind kind : kinds) {
      String label = label(kind);
      RunResult result;
      try (DemoServer server = DemoServer.builder()
          .algorithm(Algorithm.TOKEN_BUCKET)
          .limit(SERVER_LIMIT)
          .window(SERVER_WINDOW)
          .burst(SERVER_BURST)
          .headers(HeaderStyle.IETF)
          .start()) {
        HttpUrl url = HttpUrl.get(server.url() + "/api/items");
        result = new LoadRunner(base, kind, PACED_RATE, PACED_BURST).run(url, requests, 1, progress);
      }
      runs.add(new ComparedRun(kind, label, result));
      out.println(json ? result.toJson(mapper) : result.tableRow(label, width));
      out.flush();
    }
    HtmlReport.write(report, runs, (double) SERVER_LIMIT / SERVER_WINDOW.toSeconds(), SERVER_BURST);
    PrintWriter pathTo = json ? err : out;
    pathTo.println((json ? "" : "\n") + "report: " + report.toAbsolutePath().normalize());
    pathTo.flush();
    return 0;
  }

  /**
   * The table's label, numbered in {@link #CLIENTS}'s order: {@code 3. client-side bucket 4.5/s}; a
   * client beyond the five is numbered after them.
   */
  private static String label(ClientKind kind) {
    int position = CLIENTS.indexOf(kind);
    int number = position >= 0 ? position + 1 : CLIENTS.size() + 1 + extraIndex(kind);
    return number + ". " + kind.label(PACED_RATE);
  }

  private static int extraIndex(ClientKind kind) {
    int index = 0;
    for (ClientKind other : ClientKind.values()) {
      if (other == kind) {
        return index;
      }
      index += CLIENTS.contains(other) ? 0 : 1;
    }
    return index;
  }
}
