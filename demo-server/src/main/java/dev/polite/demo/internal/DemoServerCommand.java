package dev.polite.demo.internal;

import dev.polite.demo.DemoServer;
import dev.polite.demo.DemoServerConfig;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/**
 * The {@code polite-demo-server} command: flags to a {@link DemoServerConfig}, then a running
 * server until the process is stopped. A flag that does not parse, or a combination the
 * configuration refuses, prints the reason and the usage to stderr and exits 2.
 *
 * <p>The flags are not declared here: each comes from its {@link Setting}, which also holds its
 * default and rule, so the command line and the builder cannot drift apart.
 */
public final class DemoServerCommand implements Callable<Integer> {
  private final CommandSpec spec = CommandSpec.wrapWithoutInspection(this);
  private final CountDownLatch stopped = new CountDownLatch(1);

  DemoServerCommand() {
    spec.name("polite-demo-server").version("polite-demo-server 0.1.0-SNAPSHOT");
    spec.usageMessage()
        .sortOptions(false)
        .autoWidth(true)
        .description(
            "A rate-limited HTTP API to measure clients against.",
            "Every path under /api/ is limited (200 with a JSON body, or 429 with Retry-After);",
            "GET /stats gives per-key counts and a per-second timeline; POST /stats/reset clears them;",
            "/health is never limited. First stdout line: polite-demo-server listening on http://HOST:PORT");
    for (Setting<?> setting : Settings.ALL) {
      setting.addTo(spec);
    }
    spec.mixinStandardHelpOptions(true); // after the settings, so the usage lists -h and -V last
  }

  /** Parses {@code args}, runs the server until the JVM stops; returns the exit code. */
  public static int run(String[] args) {
    DemoServerCommand command = new DemoServerCommand();
    CommandLine commandLine = command.commandLine();
    commandLine.setErr(new PrintWriter(System.err, true));
    return commandLine.execute(args);
  }

  /** Whether {@code args} only ask for help or the version. */
  public static boolean isInformational(String[] args) {
    for (String arg : args) {
      if (arg.equals("--help") || arg.equals("-h") || arg.equals("--version") || arg.equals("-V")) {
        return true;
      }
    }
    return false;
  }

  /** The command line this command runs as. */
  CommandLine commandLine() {
    return spec.commandLine() != null ? spec.commandLine() : new CommandLine(spec);
  }

  /** The configuration the parsed flags describe. */
  DemoServerConfig config() {
    DemoServerConfig.Builder builder = DemoServerConfig.builder();
    try {
      for (Setting<?> setting : Settings.ALL) {
        setting.readFrom(spec, builder);
      }
      return builder.build();
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage(), e);
    }
  }

  @Override
  public Integer call() throws InterruptedException {
    DemoServerConfig config = config();
    DemoServer server = DemoServer.start(config);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      server.close();
      stopped.countDown();
    }, "polite-demo-server-shutdown"));
    System.out.println("polite-demo-server listening on " + server.url());
    System.out.flush();
    stopped.await();
    return 0;
  }
}
