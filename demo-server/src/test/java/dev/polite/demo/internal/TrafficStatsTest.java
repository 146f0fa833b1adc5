package dev.polite.demo.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.polite.demo.DemoServer;
import dev.polite.demo.DemoServerConfig;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** What GET /stats costs when many keys are counted, on a fake clock. */
class TrafficStatsTest {
  @Test
  void aHundredThousandKeysMakeASmallAnswer() {
    AtomicLong millis = new AtomicLong(1_767_225_600_000L);
    TrafficStats stats = new TrafficStats(100_000, millis::get);
    for (int i = 0; i < 100_000; i++) {
      stats.record("ip:flood-" + i, i % 3 == 0);
      if (i % 1_000 == 0) {
        millis.addAndGet(1_000); // a new second: a timeline entry for the next keys
      }
    }
    for (int i = 0; i < 50; i++) {
      stats.record("ip:busy", false);
    }
    DemoServerConfig config = DemoServer.builder().build();
    String answer = StatsJson.write(stats.top(StatsHandler.DEFAULT_TOP), config, 100_000);
    // It was 13 MB with every key in it.
    assertThat(answer.length()).as("bytes of GET /stats at 100,000 keys").isLessThan(10_000);
    assertThat(answer).contains("\"keysShown\":20", "\"keys\":{\"ip:busy\":");
    // each of the 16 segments evicts on its own, so the table holds a little less than max-keys
    assertThat(stats.top(0).keysCounted()).isBetween(99_000, 100_000);
    assertThat(StatsJson.write(stats.top(StatsHandler.MOST_TOP), config, 100_000).length())
        .as("bytes of GET /stats?top=1000").isLessThan(300_000);
  }

  @Test
  void topCountsAreWholeNumbersFromZeroToTheBound() {
    assertThat(StatsHandler.parseTop("0")).isZero();
    assertThat(StatsHandler.parseTop("1000")).isEqualTo(1000);
    assertThat(StatsHandler.parseTop("1001")).isEqualTo(-1);
    assertThat(StatsHandler.parseTop("")).isEqualTo(-1);
    assertThat(StatsHandler.parseTop("+5")).isEqualTo(-1);
    assertThat(StatsHandler.parseTop("٣")).as("a non-ASCII digit").isEqualTo(-1);
  }
}
