package dev.polite.compat;

import static org.assertj.core.api.Assertions.assertThat;

import dev.polite.compat.LocalServer.Reply;
import dev.polite.okhttp.PoliteCallFactory;
import dev.polite.okhttp.PoliteInterceptor;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import okhttp3.OkHttpClient;
import okhttp3.ResponseBody;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import retrofit2.Call;
import retrofit2.Callback;
import retrofit2.Response;
import retrofit2.Retrofit;
import retrofit2.http.GET;

/**
 * The Retrofit recipe (docs/recipes.md): a {@link PoliteCallFactory} as Retrofit's call factory, so that
 * Retrofit's calls, blocking and enqueued, are paced and retried by polite, on the OkHttp under
 * test.
 */
@Timeout(30)
class RetrofitRecipeTest {
  interface Api {
    @GET("hello")
    Call<ResponseBody> hello();
  }

  /** Refuses every other request with a 429 that asks for no wait. */
  private final AtomicInteger requests = new AtomicInteger();

  private Reply refuseEveryOther(String path) {
    return requests.getAndIncrement() % 2 == 0
        ? new Reply(429, Map.of("Retry-After", "0"), "")
        : Reply.ok();
  }

  private Api api(LocalServer server) {
    OkHttpClient client = new OkHttpClient.Builder()
        .addInterceptor(PoliteInterceptor.builder()
            .backoff(Duration.ofMillis(1), Duration.ofMillis(10)).build())
        .build();
    Retrofit retrofit = new Retrofit.Builder()
        .baseUrl(server.url("/"))
        .callFactory(PoliteCallFactory.create(client))
        .build();
    return retrofit.create(Api.class);
  }

  @Test
  void retrofitsBlockingCallIsRetriedByPolite() throws Exception {
    try (LocalServer server = new LocalServer(this::refuseEveryOther)) {
      Response<ResponseBody> response = api(server).hello().execute();
      try (ResponseBody body = response.body()) {
        assertThat(response.code()).isEqualTo(200);
        assertThat(body.string()).isEqualTo("ok");
      }
      assertThat(server.paths()).containsExactly("/hello", "/hello");
    }
  }

  @Test
  void retrofitsEnqueuedCallIsRetriedByPolite() throws Exception {
    try (LocalServer server = new LocalServer(this::refuseEveryOther)) {
      CompletableFuture<Integer> code = new CompletableFuture<>();
      api(server).hello().enqueue(new Callback<>() {
        @Override
        public void onResponse(Call<ResponseBody> call, Response<ResponseBody> response) {
          try (ResponseBody body = response.body()) {
            code.complete(response.code());
          }
        }

        @Override
        public void onFailure(Call<ResponseBody> call, Throwable t) {
          code.completeExceptionally(t);
        }
      });
      assertThat(code.get(10, TimeUnit.SECONDS)).isEqualTo(200);
      assertThat(server.paths()).containsExactly("/hello", "/hello");
    }
  }
}
