package dev.polite.demo.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.polite.demo.KeyStats;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** How keys spread over the table's segments and over the buckets of each segment's hash map. */
class KeyTableTest {
  private static final int SEGMENTS = 16;

  /**
   * A flood of about 190,000 keys holds 11,900 per segment, in hash tables of 16,384 buckets.
   * Each segment's {@link java.util.LinkedHashMap} picks a bucket from the low bits of
   * {@code h ^ (h >>> 16)}, as HashMap has since Java 8; the segment must be chosen from other
   * bits, or every key of a segment lands in the same sixteenth of its buckets: 16 × 1,024 =
   * 16,384 of the 262,144 used, holding 11,900 / 1,024 = 11.6 keys each on average, most of them
   * past the 8 at which HashMap turns a bucket into a tree.
   */
  @Test
  void aFloodOfKeysUsesEverySegmentsBuckets() {
    int keys = 190_000;
    int buckets = 16_384; // the table a HashMap of 11,900 entries has grown to (load factor 0.75)
    int[][] perBucket = new int[SEGMENTS][buckets];
    int[] perSegment = new int[SEGMENTS];
    Random random = new Random(16);
    for (int i = 0; i < keys; i++) {
      String key = i % 2 == 0
          ? "ip:" + random.nextInt(256) + "." + random.nextInt(256) + "." + random.nextInt(256) + "." + random.nextInt(256)
          : KeyStats.keyOfApiKey("flood-" + i);
      int h = key.hashCode();
      int segment = KeyTable.segmentOf(h, SEGMENTS);
      perSegment[segment]++;
      perBucket[segment][(h ^ (h >>> 16)) & (buckets - 1)]++;
    }
    int used = 0;
    int crowded = 0;
    for (int segment = 0; segment < SEGMENTS; segment++) {
      for (int count : perBucket[segment]) {
        used += count > 0 ? 1 : 0;
        crowded += count >= 8 ? 1 : 0; // where HashMap turns a bucket into a tree
      }
    }
    int leastUsedSegment = keys;
    int mostUsedSegment = 0;
    for (int count : perSegment) {
      leastUsedSegment = Math.min(leastUsedSegment, count);
      mostUsedSegment = Math.max(mostUsedSegment, count);
    }
    String spread = String.format("%,d keys: %,d of %,d buckets used, %d holding 8 or more, segments %,d..%,d",
        keys, used, SEGMENTS * buckets, crowded, leastUsedSegment, mostUsedSegment);
    // A uniform spread of 11,900 keys over 16,384 buckets leaves 1 - e^(-0.73) = 52 % of them used.
    assertThat(used).as(spread).isGreaterThan(SEGMENTS * buckets * 45 / 100);
    assertThat(crowded).as(spread).isZero();
    assertThat(mostUsedSegment - leastUsedSegment).as(spread).isLessThan(keys / SEGMENTS / 10);
  }
}
