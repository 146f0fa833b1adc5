package dev.polite.adaptive.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

class SlidingCountsTest {
  private static final long T0 = 1_000_000_000_000L;
  private static final long MS = 1_000_000L;

  @Test
  void countsLeaveTheWindowOneBucketAtATime() {
    SlidingCounts w = new SlidingCounts(1000 * MS, 10); // 100 ms buckets
    w.addRequest(T0);
    w.addAccept(T0);
    w.addRequest(T0 + 550 * MS);
    assertThat(w.requests(T0 + 550 * MS)).isEqualTo(2);
    assertThat(w.requests(T0 + 999 * MS)).isEqualTo(2);
    assertThat(w.requests(T0 + 1000 * MS)).as("the first bucket slid out").isEqualTo(1);
    assertThat(w.accepts(T0 + 1000 * MS)).isZero();
    assertThat(w.requests(T0 + 1500 * MS)).as("the second one too").isZero();
  }

  @Test
  void aJumpLongerThanTheWindowClearsIt() {
    SlidingCounts w = new SlidingCounts(1000 * MS, 10);
    for (int i = 0; i < 50; i++) {
      w.addRequest(T0 + i * 20 * MS);
    }
    assertThat(w.requests(T0 + 60_000 * MS)).isZero();
    w.addRequest(T0 + 60_000 * MS);
    assertThat(w.requests(T0 + 60_000 * MS)).isEqualTo(1);
  }

  @Test
  void aStaleTimeCountsInTheNewestBucket() {
    SlidingCounts w = new SlidingCounts(1000 * MS, 10);
    w.addRequest(T0 + 500 * MS);
    w.addRequest(T0); // a racing caller's older reading
    assertThat(w.requests(T0 + 1400 * MS)).isEqualTo(2);
    assertThat(w.requests(T0 + 1500 * MS)).isZero();
  }

  @Test
  void refusesAWindowShorterThanItsBuckets() {
    assertThatThrownBy(() -> new SlidingCounts(5, 10)).isInstanceOf(IllegalArgumentException.class);
  }

  /** The totals always equal a brute-force count of the events inside the window. */
  @Property(tries = 200)
  void totalsMatchABruteForceCount(
      @ForAll @Size(max = 200) java.util.List<@IntRange(min = 0, max = 300) Integer> gapsMs,
      @ForAll @IntRange(min = 1, max = 20) int buckets) {
    long window = 1000 * MS;
    SlidingCounts w = new SlidingCounts(window, buckets);
    long slice = window / buckets;
    java.util.List<Long> times = new java.util.ArrayList<>();
    long t = T0;
    for (int gap : gapsMs) {
      t += gap * MS;
      w.addRequest(t);
      times.add(t);
      long head = Math.floorDiv(t, slice);
      long expected = times.stream().filter(x -> Math.floorDiv(x, slice) > head - buckets).count();
      assertThat(w.requests(t)).isEqualTo(expected);
    }
  }
}
