package dev.polite.examples.fleet;

import java.io.IOException;

/**
 * The P instances of one row, started and ready, waiting for the clock: in this JVM
 * ({@link InProcessFleet}, for tests) or as P child JVMs ({@link ProcessFleet}, as a fleet is in
 * production). {@link FleetRun} drives both the same way, so a row's table line means the same
 * whichever ran it.
 *
 * <p>Usage: {@code try (LaunchedFleet fleet = ...) { fleet.go(); ...; InstanceReport report = fleet.await(); }}
 */
interface LaunchedFleet extends AutoCloseable {
  /** Starts every instance's closed loop now. */
  void go() throws IOException;

  /** Waits for the row's end (D and the drain) and returns what all instances measured. */
  InstanceReport await() throws IOException, InterruptedException;

  /** Stops every instance, whatever state it is in; never leaves a thread or a process behind. */
  @Override
  void close();
}
