package dev.polite.twin;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class ScratchTest {
  @Test
  void one() {
    long start = ZooTwin.start() - Long.getLong("phase", 12) * 50_000_000L;
    SimulatedLimiter s = SimulatedLimiter.fixedWindow(20, 1, SimulatedLimiter.Style.NONE, start);
    ZooTwin.Result r = new ZooTwin(s, 100, 64, Duration.ofMillis(2), 1).run();
    System.out.println("RESULT " + r);
  }
}
