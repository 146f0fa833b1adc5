package dev.polite.examples;

import java.io.PrintWriter;
import java.nio.charset.Charset;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * The command line: {@code java -jar examples/target/polite-examples.jar compare}, or
 * {@code ... load --url URL --requests N}. Exit codes: 0 done, 1 the run failed (such as an
 * unreachable server), 2 a bad command line. Either failure is one line on stderr, never a stack
 * trace or a page of usage: the user wants to know what to fix, and {@code --help} is one flag
 * away for the rest.
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
    cli.setParameterExceptionHandler(Main::badCommandLine);
    cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
      commandLine.getErr().println("error: " + describe(e));
      commandLine.getErr().flush();
      return 1;
    });
    return cli.execute(args);
  }

  /**
   * One line naming the problem and where the help is, such as {@code polite-examples load:
   * Unknown option: '--frobnicate' (see 'polite-examples load --help')}; exit code 2.
   */
  private static int badCommandLine(ParameterException e, String[] args) {
    CommandLine command = e.getCommandLine();
    String name = command.getCommandSpec().qualifiedName();
    PrintWriter err = command.getErr();
    err.println(name + ": " + problem(e) + " (see '" + name + " --help')");
    err.flush();
    return command.getCommandSpec().exitCodeOnInvalidInput();
  }

  /**
   * picocli checks required options before it complains of unknown ones, so {@code load --url U
   * --requets 5} would say "Missing required option '--requests'"; the misspelt word is the
   * likelier thing to fix, so it is named first.
   */
  private static String problem(ParameterException e) {
    CommandLine command = e.getCommandLine();
    List<String> unmatched = command.getUnmatchedArguments();
    if (unmatched.isEmpty()) {
      return oneLine(e.getMessage());
    }
    if (!(e instanceof UnmatchedArgumentException)) {
      return "Unknown option or argument: '" + String.join("', '", unmatched) + "'";
    }
    if (!command.getSubcommands().isEmpty() && !unmatched.get(0).startsWith("-")) {
      // picocli says "Unmatched argument at index 0"; what the user typed was a command name.
      return "Unknown command: '" + unmatched.get(0) + "'";
    }
    return oneLine(e.getMessage());
  }

  /** What went wrong in a run, in one line: file errors name the file, others give their message. */
  private static String describe(Throwable e) {
    if (e instanceof NoSuchFileException f) {
      return "no such file or directory: " + f.getFile();
    }
    if (e instanceof AccessDeniedException f) {
      return "permission denied: " + f.getFile();
    }
    if (e instanceof FileAlreadyExistsException f) {
      // Only creating a report's directories throws it: a file is where a directory must go.
      return "not a directory: " + f.getFile();
    }
    if (e instanceof FileSystemException f) {
      return f.getFile() + ": " + (f.getReason() != null ? f.getReason() : e.getClass().getSimpleName());
    }
    String message = e.getMessage();
    return message == null || message.isBlank() ? e.getClass().getSimpleName() : oneLine(message);
  }

  private static String oneLine(String message) {
    // picocli ends some messages with a full stop, others not; the caller adds its own tail.
    return message.strip().replaceAll("\\s*\\R\\s*", " ").replaceAll("\\.$", "");
  }

  /**
   * The demo server, Netty and polite log at INFO; in a demo whose output is a table that is noise. Warn
   * and above still show; {@code -Dorg.slf4j.simpleLogger.defaultLogLevel=info} brings it back.
   */
  private static void quietLogging() {
    if (System.getProperty("org.slf4j.simpleLogger.defaultLogLevel") == null) {
      System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
    }
  }
}
