package dev.polite.okhttp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.polite.RateLimitedException;
import dev.polite.RequestCost;
import java.time.Duration;
import mockwebserver3.MockResponse;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import org.junit.jupiter.api.Test;

/**
 * A request reserves the most it may cost and settles what it really cost: the unused part is
 * the key's again at once. The reference's run, on the client: 10,000 units a minute, reserve
 * 4,000, use 1,600; the next call of 7,000 goes at once instead of waiting 6.0 s.
 */
class ReserveAndSettleTest extends HarnessTest {
  private static final double PER_MINUTE = 10_000 / 60.0;

  private OkHttpClient tenThousandAMinute() {
    return h.client(h.polite().startingRate(PER_MINUTE).startingBurst(10_000));
  }

  private Request costing(RequestCost cost) {
    return h.get("/v1/chat").newBuilder().tag(RequestCost.class, cost).build();
  }

  private void ok(int n) {
    for (int i = 0; i < n; i++) {
      h.server.enqueue(new MockResponse.Builder().code(200).build());
    }
  }

  @Test
  void theUnusedPartOfAReservationIsTheNextCallsAtOnce() throws Exception {
    ok(2);
    OkHttpClient client = tenThousandAMinute();
    RequestCost reserved = RequestCost.reserve(4_000);
    try (Response r = client.newCall(costing(reserved)).execute()) {
      assertThat(r.code()).isEqualTo(200);
    }
    assertThat(reserved.settle(1_600)).isEqualTo(2_400);

    try (Response r = client.newCall(costing(RequestCost.of(7_000))).execute()) {
      assertThat(r.code()).isEqualTo(200);
    }
    assertThat(h.sends).containsExactly(0.0, 0.0);
  }

  @Test
  void unsettledTheSameCallWaitsSixSeconds() throws Exception {
    ok(2);
    OkHttpClient client = tenThousandAMinute();
    try (Response r = client.newCall(costing(RequestCost.reserve(4_000))).execute()) {
      assertThat(r.code()).isEqualTo(200);
    }
    try (Response r = client.newCall(costing(RequestCost.of(7_000))).execute()) {
      assertThat(r.code()).isEqualTo(200);
    }
    assertThat(h.sends.get(1)).isCloseTo(6.0, org.assertj.core.data.Offset.offset(0.001));
  }

  @Test
  void aCallThatCostMoreThanItReservedIsChargedTheExcess() throws Exception {
    ok(2);
    OkHttpClient client = h.client(h.polite().startingRate(1).startingBurst(10));
    RequestCost reserved = RequestCost.reserve(2);
    try (Response r = client.newCall(costing(reserved)).execute()) {
      assertThat(r.code()).isEqualTo(200);
    }
    assertThat(reserved.settle(10)).isEqualTo(-8); // the bucket of 10 is now empty
    try (Response r = client.newCall(h.get("/next")).execute()) {
      assertThat(r.code()).isEqualTo(200);
    }
    assertThat(h.sends).containsExactly(0.0, 1.0);
  }

  @Test
  void onlyTheLastAttemptIsSettled() throws Exception {
    h.server.enqueue(new MockResponse.Builder().code(429).addHeader("Retry-After", "1").build());
    ok(1);
    OkHttpClient client = h.client(h.polite().startingRate(1).startingBurst(10));
    RequestCost reserved = RequestCost.reserve(4);
    try (Response r = client.newCall(costing(reserved)).execute()) {
      assertThat(r.code()).isEqualTo(200);
    }
    // Two attempts charged 4 each; the answer's attempt used 1: 3 come back, the refusal's 4 stay.
    assertThat(reserved.settle(1)).isEqualTo(3);
    assertThat(h.codes).containsExactly(429, 200);
  }

  @Test
  void aReservationIsSettledOnceAndAPlainCostNever() throws Exception {
    ok(1);
    OkHttpClient client = tenThousandAMinute();
    RequestCost reserved = RequestCost.reserve(10);
    try (Response r = client.newCall(costing(reserved)).execute()) {
      assertThat(r.code()).isEqualTo(200);
    }
    reserved.settle(5);
    assertThatThrownBy(() -> reserved.settle(5)).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("already settled");
    assertThatThrownBy(() -> RequestCost.of(3).settle(1)).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> RequestCost.reserve(3).settle(-1))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> RequestCost.reserve(0)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aReservationNeverSentGivesNothingBack() throws Exception {
    ok(1);
    OkHttpClient client = h.client(h.polite().startingRate(1).startingBurst(1)
        .maxWait(Duration.ofMillis(100)));
    try (Response r = client.newCall(h.get("/first")).execute()) {
      assertThat(r.code()).isEqualTo(200);
    }
    RequestCost reserved = RequestCost.reserve(5);
    assertThatThrownBy(() -> client.newCall(costing(reserved)).execute())
        .isInstanceOf(RateLimitedException.class);
    assertThat(reserved.settle(0)).isZero();
  }
}
