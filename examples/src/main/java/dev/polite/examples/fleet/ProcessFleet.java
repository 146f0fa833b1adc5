package dev.polite.examples.fleet;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The P instances of a row as P child JVMs, as a fleet is in production: the same java binary and
 * class path as this JVM, each running one {@link FleetChild} (one instance, C threads). They are
 * all started and warmed up first, and the clock starts only once every one has said it is ready,
 * so JVM start-up is not measured. Each reports its counts as one JSON line and exits.
 *
 * <p>No child outlives the row: {@link #close()} stops every one, and a shutdown hook kills them
 * if this JVM is stopped meanwhile; a child whose parent dies sees its stdin close and exits.
 *
 * <p>Usage: {@code try (LaunchedFleet fleet = new ProcessFleet(8, 4, redisUri, Duration.ofMillis(20), length, serverUrl, options)) { ... }}
 */
final class ProcessFleet implements LaunchedFleet {
  /**
   * The children's JVM options. 16 JVMs share 2 cores here: a small serial heap (one GC thread,
   * a few MB live) and C1 only (compiles sooner and cheaper; the hot path is I/O and small, so C2's
   * better code is worth less than its compile threads' CPU) keep start-up and the fleet's CPU low.
   */
  static final List<String> JVM_OPTIONS = List.of("-Xmx64m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");
  /** How long P JVMs may take to start and warm up, all at once on a loaded machine. */
  private static final Duration READY_WITHIN = Duration.ofSeconds(120);
  private static final ObjectMapper JSON = new ObjectMapper();

  private final List<ChildJvm> children = new ArrayList<>();
  private final Duration length;
  private final Thread killOnExit = new Thread(this::killAll, "fleet-children-killer");

  /**
   * Starts P children and returns once all are ready.
   *
   * @param redisUri the fleet's Redis, or null for instances alone
   * @param serverUrl the demo server's base URL
   * @param jvmOptions the children's JVM options, such as {@link #JVM_OPTIONS}
   */
  ProcessFleet(int instances, int threads, @Nullable String redisUri, Duration redisTimeout, Duration length,
      String serverUrl, List<String> jvmOptions) throws IOException, InterruptedException {
    this.length = length;
    Runtime.getRuntime().addShutdownHook(killOnExit);
    try {
      List<String> command = command(threads, redisUri, redisTimeout, length, serverUrl, jvmOptions);
      for (int i = 0; i < instances; i++) {
        children.add(ChildJvm.start(command));
      }
      for (ChildJvm child : children) {
        child.awaitLine("ready", READY_WITHIN);
      }
    } catch (IOException | InterruptedException | RuntimeException e) {
      close();
      throw e;
    }
  }

  private static List<String> command(int threads, @Nullable String redisUri, Duration redisTimeout,
      Duration length, String serverUrl, List<String> jvmOptions) {
    String java = ProcessHandle.current().info().command()
        .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    List<String> command = new ArrayList<>();
    command.add(java);
    command.addAll(jvmOptions);
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(FleetChild.class.getName());
    command.add(serverUrl);
    command.add(redisUri == null ? FleetChild.NO_REDIS : redisUri);
    command.add(Integer.toString(threads));
    command.add(Long.toString(length.toMillis()));
    command.add(Long.toString(redisTimeout.toMillis()));
    return command;
  }

  /** The children's process handles, for a test to see that none survives. */
  List<ProcessHandle> handles() {
    return children.stream().map(ChildJvm::handle).toList();
  }

  @Override
  public void go() throws IOException {
    for (ChildJvm child : children) {
      child.send("go");
    }
  }

  @Override
  public InstanceReport await() throws IOException, InterruptedException {
    Duration within = reportWithin(length);
    List<InstanceReport> reports = new ArrayList<>();
    for (ChildJvm child : children) {
      reports.add(JSON.readValue(child.awaitLine("report", within), InstanceReport.class));
    }
    return InstanceReport.merge(reports);
  }

  /**
   * How long after {@code go} a fleet of runs of {@code length} may take to report: the run, its
   * drain, the 5 s + 5 s that cancelling and interrupting may take after it, and 30 s for a
   * loaded machine.
   */
  static Duration reportWithin(Duration length) {
    return length.plus(InstanceLoad.DRAIN).plusSeconds(40);
  }

  @Override
  public void close() {
    for (ChildJvm child : children) {
      child.stop();
    }
    try {
      Runtime.getRuntime().removeShutdownHook(killOnExit);
    } catch (IllegalStateException shuttingDown) {
      // the hook runs, or has run, anyway
    }
  }

  private void killAll() {
    children.forEach(ChildJvm::kill);
  }
}
