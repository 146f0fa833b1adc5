package dev.polite.demo;

import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/**
 * The {@code polite-demo-server} command: flags to a {@link DemoServerConfig}, then a running
 * server until the process is stopped. A flag that does not parse, or a combination the
 * configuration refuses, prints the reason and the usage to stderr and exits 2; an address it
 * cannot listen on prints one line ({@code polite-demo-server: port 8080 is in use (try --port 0)})
 * and exits 1, since a stack trace says less to the person who typed the command.
 *
 * <p>The flags are not declared here: each comes from its {@link Setting}, which also holds its
 * default and rule, so the command line and the builder cannot drift apart.
 */
final class DemoServerCommand implements Callable<Integer> {
  private static final String NAME = "polite-demo-server";
  /** The exit code when the server cannot listen; picocli's for a failed command. */
  static final int CANNOT_LISTEN = CommandLine.ExitCode.SOFTWARE;

  private final CommandSpec spec = CommandSpec.wrapWithoutInspection(this);
  private final CountDownLatch stopped = new CountDownLatch(1);

  DemoServerCommand() {
    spec.name(NAME).version(NAME + " 0.1.0-SNAPSHOT");
    spec.usageMessage()
        .sortOptions(false)
        .autoWidth(true)
        .description(
            "A rate-limited HTTP API to measure clients against.",
            "Every path under /api/ is limited (200 with a JSON body, or 429 with Retry-After; 403 by --reject-status);",
            "GET /stats gives per-key counts and a per-second timeline; POST /stats/reset clears them;",
            "/health is never limited. First stdout line: polite-demo-server listening on http://HOST:PORT");
    for (Setting<?> setting : Settings.ALL) {
      setting.addTo(spec);
    }
    spec.mixinStandardHelpOptions(true); // after the settings, so the usage lists -h and -V last
  }

  /** Parses {@code args}, runs the server until the JVM stops; returns the exit code. */
  static int run(String[] args) {
    return run(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true));
  }

  /** {@link #run(String[])} writing to {@code out} and {@code err}, as tests read them. */
  static int run(String[] args, PrintWriter out, PrintWriter err) {
    CommandLine commandLine = new DemoServerCommand().commandLine();
    commandLine.setOut(out);
    commandLine.setErr(err);
    return commandLine.execute(args);
  }

  /** Whether {@code args} only ask for help or the version. */
  static boolean isInformational(String[] args) {
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
        readInto(builder, setting);
      }
      return builder.build();
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage(), e);
    }
  }

  /** Hands what the command line says of {@code setting}, if anything, to {@code builder}, which checks it. */
  private <T> void readInto(DemoServerConfig.Builder builder, Setting<T> setting) {
    T value = setting.readFrom(spec);
    if (value != null) {
      builder.set(setting, value);
    }
  }

  /** The one line a bind failure deserves: where, and what to do when the port is taken. */
  private static String cannotListen(DemoServerConfig config, BindException bind) {
    String reason = String.valueOf(bind.getMessage());
    if (reason.contains("in use")) { // "Address already in use", with ": bind" on Windows
      return "port " + config.port() + " is in use (try --port 0)";
    }
    return "cannot listen on " + config.host() + ":" + config.port() + ": " + reason;
  }

  @Override
  public Integer call() throws InterruptedException {
    DemoServerConfig config = config();
    DemoServer server;
    try {
      server = DemoServer.start(config);
    } catch (UncheckedIOException e) {
      if (!(e.getCause() instanceof BindException bind)) {
        throw e;
      }
      spec.commandLine().getErr().println(NAME + ": " + cannotListen(config, bind));
      return CANNOT_LISTEN;
    }
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      server.close();
      stopped.countDown();
    }, "polite-demo-server-shutdown"));
    PrintWriter out = spec.commandLine().getOut();
    out.println(NAME + " listening on " + server.url());
    out.flush();
    stopped.await();
    return 0;
  }
}
