package dev.polite.examples.overload;

import dev.polite.examples.ProgressLine;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code overload}: how adaptive throttling and rate discovery behave under overload. Without
 * {@code --live}, the scenarios on a simulated clock ({@link OverloadScenarios#run()}:
 * deterministic, a few seconds; {@code --sweep} runs {@link OverloadScenarios#sweep()}, the grid
 * that chose the defaults). With {@code --live}, the discovery scenario in real time against an
 * in-process demo server that sends no limit headers, one row per rate controller
 * ({@link LiveDiscovery}).
 *
 * <p>Usage: {@code java -jar polite-examples.jar overload --live --seconds 30 --json}
 */
@Command(name = "overload",
    description = {
        "Measures adaptive throttling and rate discovery. By default runs the overload "
            + "scenarios (B1.1, B1.2, B1.3, B1.3-0.5rps, discovery) on a simulated clock: deterministic, "
            + "a few seconds.",
        "With --live, runs the discovery scenario in real time instead: an in-process demo server "
            + "(token bucket 20/s, burst 5, no rate-limit headers), 60 GETs per second open-loop, "
            + "one row per controller (aimd, cubic), each with a fresh server and client.",
        "Prints a table, or with --json one JSON object per row: "
            + "scenario, config, sent_rps, server_rejected, goodput_rps, local_drop, recovery_s."},
    usageHelpAutoWidth = true, sortOptions = false)
public final class OverloadCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
  boolean help;

  @Option(names = "--json", description = "Print one JSON object per row instead of the table.")
  boolean json;

  @Option(names = "--live", description = "Run the discovery scenario in real time against the demo server.")
  boolean live;

  @Option(names = "--sweep", description = "Run the grid of throttle and controller settings that chose "
      + "the defaults instead (a minute or so).")
  boolean sweep;

  @Option(names = "--seconds", paramLabel = "S", defaultValue = "60",
      description = "With --live: seconds of demand per controller, at least 2; the second half is "
          + "measured (default: ${DEFAULT-VALUE}).")
  int seconds;

  @Override
  public Integer call() throws Exception {
    if (seconds < 2 || seconds > 3600) {
      throw new ParameterException(spec.commandLine(), "--seconds must be 2 to 3600, was " + seconds);
    }
    if (live && sweep) {
      throw new ParameterException(spec.commandLine(), "--live and --sweep are different runs: choose one");
    }
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    if (!json) {
      out.println(live
          ? String.format(Locale.ROOT, "discovery, live: demo server token bucket %d/s burst %d, no rate-limit "
              + "headers; %d GETs/s for %d s per controller, measured over %d-%d s.%n",
              LiveDiscovery.SERVER_RATE, LiveDiscovery.SERVER_BURST, LiveDiscovery.DEMAND_RPS, seconds,
              LiveDiscovery.measuredFrom(seconds), seconds)
          : "overload scenarios on a simulated clock (OverloadScenarios), seeded.\n");
      out.println(ScenarioRow.header());
      out.flush();
    }
    List<ScenarioRow> rows;
    if (live) {
      ProgressLine progress = ProgressLine.forConsole(err);
      for (LiveDiscovery.Controller controller : LiveDiscovery.Controller.values()) {
        LiveDiscovery.Result result = new LiveDiscovery(controller, seconds).run(progress);
        print(out, result.row());
        if (!json) {
          // What the row does not show: each 429 came with Retry-After: 1 and paused the key.
          out.printf(Locale.ROOT, "    %d calls, %d attempts, %d answered 429, %d dropped locally; "
              + "admitted per second: %s%n", result.arrived(), result.sent(), result.rejected(),
              result.dropped(), java.util.Arrays.toString(result.admittedPerSecond()));
          out.flush();
        }
        if (result.poolFull() > 0 || result.failed() > 0) {
          err.printf(Locale.ROOT, "%s: %d calls found the pool full (counted as local drops), %d failed%n",
              controller.configName(), result.poolFull(), result.failed());
          err.flush();
        }
      }
      return 0;
    }
    rows = sweep ? OverloadScenarios.sweep() : OverloadScenarios.run();
    for (ScenarioRow row : rows) {
      print(out, row);
    }
    return 0;
  }

  private void print(PrintWriter out, ScenarioRow row) {
    out.println(json ? row.toJson() : row.toLine());
    out.flush();
  }
}
