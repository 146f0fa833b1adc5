package dev.polite.internal.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.polite.TokenBucket;
import org.junit.jupiter.api.Test;

/**
 * The server's remaining count read against the key's own calls: an hourly quota of 20 (a pace so
 * slow that no refill comes within a test), on a clock that does not move.
 */
class ServerCountTest {
  private static final long NOW = 1_000_000_000_000L;

  private final TokenBucket bucket = TokenBucket.full(20.0 / 3600, 20, NOW);
  private final CallLedger ledger = new CallLedger();
  private final ServerCount count = new ServerCount(bucket, ledger);

  private Permit send() {
    bucket.reserve(1, NOW);
    long ticket = ledger.reserve(1);
    boolean alone = ledger.inFlight() == 1;
    int others = ledger.send(1);
    return new Permit(NOW, ticket, alone, others);
  }

  private double answer(Permit permit, long remaining) {
    boolean exact = ledger.wasExclusive(permit);
    ledger.ended();
    return count.report(remaining, exact, permit, NOW);
  }

  @Test
  void anExactReportSetsTheCountLessTheCallsInFlight() {
    Permit only = send();
    assertThat(ServerCount.stands(answer(only, 12))).isTrue();
    assertThat(bucket.tokens(NOW)).isEqualTo(12, within(1e-9));
  }

  @Test
  void aReportOthersMayHaveOvertakenOnlyLowersTheCountByTheCallsReservedAfterIt() {
    Permit first = send();
    Permit second = send();
    Permit third = send(); // the key holds 17
    answer(first, 19); // the server counted the first alone: two reserved after it are unseen
    assertThat(bucket.tokens(NOW)).isEqualTo(17, within(1e-9));
    answer(second, 15); // lower: someone else spent two meanwhile; the third is unseen
    assertThat(bucket.tokens(NOW)).isEqualTo(14, within(1e-9));
    assertThat(ServerCount.stands(answer(third, 14))).isTrue();
    assertThat(bucket.tokens(NOW)).as("the wire is empty and the count agrees").isEqualTo(14, within(1e-9));
  }

  @Test
  void twoOvertakenReportsAreSettledAtTheNextReportNotOnlyWhenTheWireEmpties() {
    Permit a = send();
    Permit b = send();
    Permit c = send();
    Permit d = send(); // the key holds 16
    // The server counted them d, c, a, b: b's report (16) and a's (17) come back first, each read
    // as if the calls reserved after it were unseen, though the server had counted them.
    answer(b, 16); // 16 - 2 unseen = 14
    double raiseTo = answer(a, 17); // 17 - 2 unseen is 15: no lower than 14
    // The lowest report since the wire was last empty is 16, with two calls still on the wire:
    // the server has at least 14 left, and the key believes 14. Nothing to settle yet.
    assertThat(ServerCount.stands(raiseTo)).isTrue();
    raiseTo = answer(d, 19); // 19 - 0 unseen (d is the last reserved): no lower than 14
    assertThat(raiseTo).as("lowest report 16 less the one call on the wire").isEqualTo(15, within(1e-9));
    bucket.setTokens(raiseTo, NOW);
    assertThat(answer(c, 18)).as("with the wire empty, the lowest report exactly: what the server has")
        .isEqualTo(16, within(1e-9));
  }

  @Test
  void aCallShortOfNoMoreTokensThanCallsOnTheWireMaySettle() {
    bucket.setTokens(2, NOW);
    send();
    send(); // none left, two on the wire
    bucket.reserve(1, NOW); // a third call's reservation, a token short
    assertThat(count.maySettle(1, NOW)).isTrue();
    bucket.setTokens(-3, NOW); // as if two more had reserved: the most two answers may settle
    assertThat(count.maySettle(1, NOW)).isTrue();
    bucket.setTokens(-4, NOW);
    assertThat(count.maySettle(1, NOW)).isFalse();
  }

  @Test
  void withNothingOnTheWireNoCountMaySettle() {
    bucket.setTokens(0, NOW);
    assertThat(count.maySettle(1, NOW)).isFalse();
  }
}
