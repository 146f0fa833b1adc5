package dev.polite.demo.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** A block once over, restarted by every call that comes during it, on a clock the test moves. */
class BlocksTest {
  private static final long SECOND = 1_000_000_000L;

  @Test
  void aBlockedKeyIsRefusedUntilOneLengthAfterItsLatestRefusedCall() {
    Blocks blocks = new Blocks(SECOND, 100);
    long t = 1_000 * SECOND;
    assertThat(blocks.refuses("a", t)).as("never refused, never blocked").isFalse();

    blocks.block("a", t);
    assertThat(blocks.refuses("a", t + SECOND / 2)).isTrue(); // restarts: ends at t + 1.5 s
    assertThat(blocks.refuses("a", t + SECOND + SECOND / 4)).as("past the first end, within the restarted one")
        .isTrue(); // ends at t + 2.25 s
    assertThat(blocks.refuses("a", t + 2 * SECOND + SECOND / 4 - 1)).isTrue(); // ends at t + 3.25 s - 1
    assertThat(blocks.refuses("a", t + 3 * SECOND + SECOND / 4 - 1)).as("exactly at its end").isFalse();
    assertThat(blocks.refuses("a", t + 10 * SECOND)).isFalse();
  }

  @Test
  void eachKeyHasItsOwnBlockAndAnEarlierRefusalNeverShortensOne() {
    Blocks blocks = new Blocks(2 * SECOND, 100);
    long t = 50 * SECOND;
    blocks.block("a", t + SECOND);
    blocks.block("a", t); // came in late from another thread: the later end stands
    assertThat(blocks.refuses("b", t)).isFalse();
    assertThat(blocks.refuses("a", t + 3 * SECOND - 1)).isTrue();
    assertThat(blocks.blockNanos()).isEqualTo(2 * SECOND);
    assertThatThrownBy(() -> new Blocks(0, 10)).hasMessageStartingWith("blockNanos:");
  }

  @Test
  void aFloodOfBlockedKeysIsBounded() {
    Blocks blocks = new Blocks(SECOND, 10);
    for (int i = 0; i < 1_000; i++) {
      blocks.block("k" + i, SECOND);
    }
    int held = 0;
    for (int i = 0; i < 1_000; i++) {
      held += blocks.refuses("k" + i, SECOND + 1) ? 1 : 0;
    }
    assertThat(held).as("at most max-keys blocks held").isLessThanOrEqualTo(10).isPositive();
  }
}
