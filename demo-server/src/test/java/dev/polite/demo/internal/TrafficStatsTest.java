package dev.polite.demo.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.polite.demo.DemoServer;
import dev.polite.demo.DemoServerConfig;
import dev.polite.demo.KeyStats;
import java.nio.charset.StandardCharsets;
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
        .as("bytes of GET /stats?top=1000").isLessThan(StatsJson.MAX_BYTES);
  }

  /**
   * 1,000 keys, each busy in every one of the last ten minutes: each key's timeline held 600
   * seconds of any age, and {@code top=1000} wrote them all, about 37 MB ({@code top=20}: 0.75 MB).
   * Every query is answered in under 64 KB, timelines hold no second older than
   * {@value TrafficStats#TIMELINE_SECONDS} s, and the answer says how many keys it shows.
   */
  @Test
  void everyQueryIsAnsweredInUnder64KbWithAThousandBusyKeys() {
    AtomicLong millis = new AtomicLong(1_767_225_600_000L);
    TrafficStats stats = new TrafficStats(100_000, millis::get);
    for (int second = 0; second < 600; second++) {
      for (int key = 0; key < 1_000; key++) {
        stats.record("ip:203.0." + key / 256 + "." + key % 256, key % 7 != 0);
      }
      millis.addAndGet(1_000);
    }
    StatsHandler handler = new StatsHandler(DemoServer.builder().build(), stats, () -> 1_000);
    for (String top : new String[] {null, "0", "1", "20", "100", "101", "1000"}) {
      StatsHandler.Answer answer = handler.show(null, top);
      assertThat(answer.status()).as("top=%s", top).isEqualTo(200);
      assertThat(answer.body().getBytes(StandardCharsets.UTF_8).length).as("bytes of GET /stats?top=%s", top)
          .isLessThan(StatsJson.MAX_BYTES);
    }
    assertThat(handler.show(null, "1000").body()).contains("\"keysShown\":" + StatsHandler.MOST_TOP);
    assertThat(handler.show(null, null).body()).contains("\"keysShown\":20");
    StatsHandler.Answer one = handler.show("ip:203.0.0.1", null);
    assertThat(one.body().getBytes(StandardCharsets.UTF_8).length).isLessThan(StatsJson.MAX_BYTES);
    KeyStats key = stats.snapshot().key("ip:203.0.0.1");
    long now = Math.floorDiv(millis.get(), 1000);
    assertThat(key.timeline()).as("seconds kept").hasSizeLessThanOrEqualTo(TrafficStats.TIMELINE_SECONDS)
        .allSatisfy(second -> assertThat(second.epochSecond()).isGreaterThan(now - TrafficStats.TIMELINE_SECONDS));
    assertThat(key.admitted() + key.rejected()).as("the totals keep every request").isEqualTo(600);
  }

  @Test
  void aTimelineForgetsSecondsOlderThanItsAgeEvenWithoutNewTraffic() {
    AtomicLong millis = new AtomicLong(1_767_225_600_000L);
    TrafficStats stats = new TrafficStats(10, millis::get);
    stats.record("ip:192.0.2.1", true);
    millis.addAndGet(TrafficStats.TIMELINE_SECONDS * 1_000L);
    assertThat(stats.snapshot().key("ip:192.0.2.1").timeline()).as("a second %d s old", TrafficStats.TIMELINE_SECONDS)
        .isEmpty();
    assertThat(stats.snapshot().key("ip:192.0.2.1").admitted()).isEqualTo(1);
  }

  @Test
  void topCountsAreWholeNumbersFromZeroToTheBound() {
    assertThat(StatsHandler.parseTop("0")).isZero();
    assertThat(StatsHandler.parseTop("1000")).as("taken, and shown as the most there is").isEqualTo(1000);
    assertThat(StatsHandler.parseTop("1001")).isEqualTo(-1);
    assertThat(StatsHandler.parseTop("")).isEqualTo(-1);
    assertThat(StatsHandler.parseTop("+5")).isEqualTo(-1);
    assertThat(StatsHandler.parseTop("٣")).as("a non-ASCII digit").isEqualTo(-1);
  }
}
