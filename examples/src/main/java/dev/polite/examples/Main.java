package dev.polite.examples;

import java.io.PrintWriter;
import java.nio.charset.Charset;
import picocli.CommandLine;

/**
 * The command line: {@code java -jar examples/target/polite-examples.jar compare}, or
 * {@code ... load --url URL --requests N}. Exit codes: 0 done, 1 the run failed (such as an
 * unreachable server, reported in one line), 2 a bad command line (with the usage).
 *
 * <p>Usage: {@code java -jar examples/target/polite-examples.jar --help}
 */
public final class Main {
  private Main() {}

  /** Runs a command and exits with its code. */
  public static void main(String[] args) {
    quietLogging();
    Charset charset = Charset.defaultCharset();
    PrintWriter out = new PrintWriter(new java.io.OutputStreamWriter(System.out, charset), true);
    PrintWriter err = new PrintWriter(new java.io.OutputStreamWriter(System.err, charset), true);
    int exit = run(args, out, err);
    out.flush();
    err.flush();
    System.exit(exit);
  }

  /**
   * Runs a command with its output going to {@code out} and {@code err}, and returns the exit
   * code instead of exiting: what tests call.
   */
  public static int run(String[] args, PrintWriter out, PrintWriter err) {
    CommandLine cli = new CommandLine(new PoliteExamplesCommand());
    cli.setOut(out);
    cli.setErr(err);
    cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
      // Never a stack trace for the user: one line naming what went wrong.
      commandLine.getErr().println("error: " + (e.getMessage() != null ? e.getMessage() : e.toString()));
      commandLine.getErr().flush();
      return 1;
    });
    return cli.execute(args);
  }

  /**
   * Undertow, XNIO and polite log at INFO; in a demo whose output is a table that is noise. Warn
   * and above still show; {@code -Dorg.slf4j.simpleLogger.defaultLogLevel=info} brings it back.
   */
  private static void quietLogging() {
    System.setProperty("org.jboss.logging.provider", "slf4j");
    if (System.getProperty("org.slf4j.simpleLogger.defaultLogLevel") == null) {
      System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
    }
  }
}
