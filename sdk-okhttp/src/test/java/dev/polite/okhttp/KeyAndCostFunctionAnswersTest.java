package dev.polite.okhttp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.polite.RequestCost;
import dev.polite.RequestView;
import dev.polite.testing.FakeClock;
import java.io.IOException;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;
import okhttp3.Call;
import okhttp3.Callback;
import okhttp3.OkHttpClient;
import okhttp3.Protocol;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.ResponseBody;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A custom cost function's answer is checked as {@link RequestCost#of(double)} checks its units
 * (issue 27, item 4): NaN would make a call free, a negative cost would mint tokens, an infinite
 * one would wait forever. A bad answer fails that call, before it takes anything from its key,
 * with an {@link IOException} (the only kind that may leave an interceptor) naming the key and
 * the value; the key's other calls go on as if it had never been asked. No network: an
 * application interceptor after polite answers each request with a canned 200, on a fake clock.
 * A key function that answers null or throws fails its call the same way.
 */
class KeyAndCostFunctionAnswersTest {
  private static final String KEY = "http://api.example.test:80";

  private final FakeClock clock = new FakeClock();
  /** Fake-clock seconds at which each request got past polite, in order. */
  private final List<Double> sends = new CopyOnWriteArrayList<>();
  private final List<ResponseBody> bodies = new CopyOnWriteArrayList<>();

  private PoliteInterceptor polite(ToDoubleFunction<RequestView> cost) {
    // one call a second, burst 1: a call that took or minted tokens would move the next one
    return PoliteInterceptor.builder().clock(clock, clock).wallClock(clock).random(new Random(42))
        .startingRate(1).startingBurst(1).cost(cost).build();
  }

  private OkHttpClient client(PoliteInterceptor polite) {
    return new OkHttpClient.Builder()
        .addInterceptor(polite)
        .addInterceptor(chain -> {
          sends.add(FakeClock.seconds(clock.read()));
          ResponseBody body = ResponseBody.create("{}", null);
          bodies.add(body);
          return new Response.Builder().request(chain.request()).protocol(Protocol.HTTP_1_1)
              .code(200).message("OK").body(body).build();
        })
        .build();
  }

  private static Request get(String path) {
    return new Request.Builder().url("http://api.example.test" + path).build();
  }

  /** {@code bad} for /bad, 1 for anything else. */
  private static ToDoubleFunction<RequestView> answering(double bad) {
    return request -> request.encodedPath().equals("/bad") ? bad : 1;
  }

  @ParameterizedTest
  @ValueSource(doubles = {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, -5, 0})
  void aCostThatIsNotPositiveAndFiniteFailsTheCallAndLeavesTheKeyAsItWas(double bad) throws Exception {
    PoliteInterceptor polite = polite(answering(bad));
    OkHttpClient client = client(polite);

    for (int i = 0; i < 3; i++) {
      assertThatThrownBy(() -> client.newCall(get("/bad")).execute())
          .isInstanceOf(IOException.class)
          .hasMessageContaining(KEY)
          .hasMessageContaining("cost function answered " + bad)
          .hasMessageContaining("positive and finite")
          .cause().isInstanceOf(IllegalArgumentException.class);
    }
    assertThat(sends).as("nothing was sent").isEmpty();
    assertThat(polite.snapshot(KEY)).as("nor a key made for it").isEmpty();

    client.newCall(get("/a")).execute().close();
    client.newCall(get("/b")).execute().close();
    assertThat(sends).as("one a second, burst 1, as if no bad call had been made").containsExactly(0.0, 1.0);
    assertThat(bodies).hasSize(2);
  }

  @Test
  void aCostFunctionThatThrowsFailsTheCallWithItsFailureAsTheCause() throws Exception {
    IllegalStateException boom = new IllegalStateException("no price list for /bad");
    PoliteInterceptor polite = polite(request -> {
      if (request.encodedPath().equals("/bad")) {
        throw boom;
      }
      return 1;
    });
    OkHttpClient client = client(polite);

    assertThatThrownBy(() -> client.newCall(get("/bad")).execute())
        .isInstanceOf(IOException.class)
        .hasMessageContaining(KEY)
        .hasMessageContaining("cost function threw")
        .hasMessageContaining("no price list for /bad")
        .cause().isSameAs(boom);
    assertThat(sends).isEmpty();

    client.newCall(get("/a")).execute().close();
    client.newCall(get("/b")).execute().close();
    assertThat(sends).containsExactly(0.0, 1.0);
  }

  /** Through a {@link PoliteCallFactory}: execute throws it, enqueue hands it to onFailure. */
  @Test
  void aPoliteCallFactoryCallFailsTheSameWay() throws Exception {
    PoliteInterceptor polite = polite(answering(-1));
    OkHttpClient client = client(polite);
    PoliteCallFactory calls = PoliteCallFactory.builder(client).scheduler(new FakeScheduler(clock)).build();

    assertThatThrownBy(() -> calls.newCall(get("/bad")).execute())
        .isInstanceOf(IOException.class)
        .hasMessageContaining(KEY)
        .hasMessageContaining("cost function answered -1.0");

    CompletableFuture<IOException> failure = new CompletableFuture<>();
    calls.newCall(get("/bad")).enqueue(new Callback() {
      @Override
      public void onFailure(Call call, IOException e) {
        failure.complete(e);
      }

      @Override
      public void onResponse(Call call, Response response) {
        response.close();
        failure.completeExceptionally(new AssertionError("answered " + response.code()));
      }
    });
    assertThat(failure.get(10, TimeUnit.SECONDS))
        .hasMessageContaining(KEY)
        .hasMessageContaining("cost function answered -1.0");
    assertThat(sends).isEmpty();
    assertThat(polite.snapshot(KEY)).isEmpty();
  }

  @Test
  void aKeyFunctionThatAnswersNullOrThrowsFailsTheCallAsAnIOException() throws Exception {
    IllegalStateException boom = new IllegalStateException("no tenant header");
    PoliteInterceptor polite = PoliteInterceptor.builder().clock(clock, clock).wallClock(clock)
        .key(request -> switch (request.encodedPath()) {
          case "/null" -> null;
          case "/throws" -> throw boom;
          default -> "tenant";
        }).build();
    OkHttpClient client = client(polite);

    assertThatThrownBy(() -> client.newCall(get("/null")).execute())
        .isInstanceOf(IOException.class)
        .hasMessageContaining("GET http://api.example.test/")
        .hasMessageContaining("key function answered null");
    assertThatThrownBy(() -> client.newCall(get("/throws")).execute())
        .isInstanceOf(IOException.class)
        .hasMessageContaining("key function threw")
        .cause().isSameAs(boom);
    assertThat(sends).isEmpty();
    client.newCall(get("/a")).execute().close();
    assertThat(sends).hasSize(1);
    assertThat(polite.snapshots()).singleElement()
        .satisfies(k -> assertThat(k.key()).isEqualTo("tenant"));
  }
}
