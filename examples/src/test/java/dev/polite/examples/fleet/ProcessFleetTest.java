package dev.polite.examples.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import dev.polite.demo.Algorithm;
import dev.polite.demo.DemoServer;
import dev.polite.demo.HeaderStyle;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Two real child JVMs against a real demo server: their reports reach the parent and add up to
 * what the server admitted, and no child outlives {@link ProcessFleet#close()}.
 */
class ProcessFleetTest {
  @Test
  void twoChildJvmsReportWhatTheServerAdmittedAndNoneOutlivesTheRow() throws Exception {
    List<ProcessHandle> handles;
    try (DemoServer server = DemoServer.builder().algorithm(Algorithm.TOKEN_BUCKET).limit(20)
        .window(Duration.ofSeconds(1)).burst(20).headers(HeaderStyle.IETF).start()) {
      InstanceReport report;
      try (ProcessFleet fleet = new ProcessFleet(2, 2, null, Duration.ofMillis(20), Duration.ofSeconds(2), server.url().toString(),
          ProcessFleet.JVM_OPTIONS)) {
        handles = fleet.handles();
        assertThat(handles).hasSize(2).allMatch(ProcessHandle::isAlive);
        fleet.go();
        report = fleet.await();
      }
      assertThat(report.failed()).as("failures: %s", report.failures()).isZero();
      assertThat(report.ok()).isPositive();
      assertThat(report.durationsNanos()).hasSize((int) report.calls());
    }
    for (ProcessHandle handle : handles) {
      handle.onExit().get(10, TimeUnit.SECONDS);
      assertThat(handle.isAlive()).isFalse();
    }
  }
}
