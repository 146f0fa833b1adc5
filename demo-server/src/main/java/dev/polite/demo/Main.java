package dev.polite.demo;

/**
 * The command line: {@code java -jar polite-demo-server.jar --help}. Prints
 * {@code polite-demo-server listening on http://HOST:PORT} as its first stdout line once bound,
 * runs until interrupted, exits 2 with a usage message on a bad flag, and exits 1 with one line
 * on stderr when it cannot listen (such as a port in use).
 *
 * <p>Usage: {@code java -jar demo-server/target/polite-demo-server.jar --algorithm gcra --limit 5 --window 1s}
 */
public final class Main {
  private Main() {}

  /** Runs the server from command-line flags; exits only on error, help or a signal. */
  public static void main(String[] args) {
    // Netty logs through SLF4J; its debug lines (which transport, which allocator) are not what
    // a user reads stderr for (unless -D says otherwise).
    quietUnlessSet("org.slf4j.simpleLogger.log.io.netty");
    int exit = DemoServerCommand.run(args);
    if (exit != 0 || DemoServerCommand.isInformational(args)) {
      System.exit(exit);
    }
  }

  private static void quietUnlessSet(String logLevelProperty) {
    if (System.getProperty(logLevelProperty) == null) {
      System.setProperty(logLevelProperty, "warn");
    }
  }
}
