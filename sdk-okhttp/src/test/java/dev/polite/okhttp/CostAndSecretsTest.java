package dev.polite.okhttp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.polite.CallContext;
import dev.polite.GiveUpReason;
import dev.polite.PoliteListener;
import dev.polite.RateLimitKey;
import dev.polite.RateLimitSignals;
import dev.polite.RateLimitedException;
import dev.polite.RequestCost;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import mockwebserver3.MockResponse;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import org.junit.jupiter.api.Test;

/** Weighted costs, and that no credential leaks into what polite says. */
class CostAndSecretsTest extends HarnessTest {
  @Test
  void aTaggedCostSpendsThatManyTokens() throws Exception {
    for (int i = 0; i < 3; i++) {
      h.server.enqueue(new MockResponse.Builder().code(200).build());
    }
    OkHttpClient client = h.client(h.polite().startingRate(1).startingBurst(5));
    Request heavy = h.get("/export").newBuilder().tag(RequestCost.class, RequestCost.of(5)).build();

    client.newCall(heavy).execute().close(); // spends the whole burst
    client.newCall(h.get("/cheap")).execute().close(); // waits 1 s for one token
    client.newCall(heavy).execute().close(); // waits 5 s for five

    assertThat(h.sends).containsExactly(0.0, 1.0, 6.0);
  }

  @Test
  void aCostFunctionWeighsRequests() throws Exception {
    for (int i = 0; i < 2; i++) {
      h.server.enqueue(new MockResponse.Builder().code(200).build());
    }
    OkHttpClient client = h.client(h.polite().startingRate(2).startingBurst(2)
        .cost(r -> r.method().equals("GET") ? 1 : 2));

    client.newCall(h.get("/a")).execute().close();
    client.newCall(h.get("/b").newBuilder().delete().build()).execute().close();

    assertThat(h.sends).containsExactly(0.0, 0.5);
  }

  @Test
  void noApiKeyReachesAnEventOrAnException() throws Exception {
    String secret = "sk_live_do_not_log_me";
    h.server.enqueue(new MockResponse.Builder().code(429).addHeader("Retry-After", "86400").build());
    List<String> heard = new CopyOnWriteArrayList<>();
    PoliteListener listener = new PoliteListener() {
      @Override
      public void rateLimited(CallContext call, RateLimitSignals signals) {
        heard.add(call.key() + " " + signals);
      }

      @Override
      public void gaveUp(CallContext call, GiveUpReason reason, Duration requestedDelay) {
        heard.add(call.key() + " " + reason);
      }

      @Override
      public void paused(String key, Duration pause) {
        heard.add(key + " " + pause);
      }
    };
    OkHttpClient client = h.client(h.polite().key(RateLimitKey.header("Authorization"))
        .addListener(listener).throwWhenRateLimited(true));
    Request request = h.get("/a").newBuilder().header("Authorization", "Bearer " + secret).build();

    assertThatThrownBy(() -> client.newCall(request).execute())
        .isInstanceOf(RateLimitedException.class)
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain(secret).doesNotContain("Bearer"));
    assertThatThrownBy(() -> client.newCall(request).execute())
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain(secret));

    assertThat(heard).isNotEmpty().allSatisfy(line -> assertThat(line).doesNotContain(secret));
  }
}
