package dev.polite.redis;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The nodes whose keys pace alone: one failure sends them, REJOIN_AFTER answers in a row bring them back. */
class DownNodesTest {
  private static boolean serves(String node) {
    return true;
  }

  @Test
  void oneFailureSendsANodeAloneAndAnswersInARowBringItBack() {
    DownNodes down = new DownNodes();
    assertThat(down.any()).isFalse();
    assertThat(down.reached("a", DownNodesTest::serves)).as("nothing was down").isFalse();

    assertThat(down.unreachable("a")).as("the first node down").isTrue();
    assertThat(down.any()).isTrue();
    assertThat(down.contains("a")).isTrue();
    assertThat(down.contains("b")).isFalse();
    for (int i = 1; i < AskAgain.REJOIN_AFTER; i++) {
      assertThat(down.reached("a", DownNodesTest::serves)).isFalse();
    }
    assertThat(down.unreachable("a")).as("a failure starts the count again; not a new transition").isFalse();
    for (int i = 1; i < AskAgain.REJOIN_AFTER; i++) {
      assertThat(down.reached("a", DownNodesTest::serves)).isFalse();
    }
    assertThat(down.reached("a", DownNodesTest::serves)).as("the last of the row").isTrue();
    assertThat(down.any()).isFalse();
    assertThat(down.transitions()).as("alone once, back once").isEqualTo(2);
  }

  @Test
  void theKeysRejoinOnlyWhenNoNodeIsDownAndANodeThatServesNothingIsDropped() {
    DownNodes down = new DownNodes();
    down.unreachable("a");
    assertThat(down.unreachable("b")).as("a second node: no new transition").isFalse();
    for (int i = 0; i < AskAgain.REJOIN_AFTER; i++) {
      assertThat(down.reached("a", DownNodesTest::serves)).isFalse();
    }
    assertThat(down.contains("a")).isFalse();
    assertThat(down.contains("b")).isTrue();

    assertThat(down.reached("a", node -> !node.equals("b"))).as("b's slots were taken over").isTrue();
    assertThat(down.any()).isFalse();
    assertThat(down.transitions()).isEqualTo(2);
  }
}
