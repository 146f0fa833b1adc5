package dev.polite.compat;

import static org.assertj.core.api.Assertions.assertThat;

import dev.polite.compat.LocalServer.Reply;
import dev.polite.okhttp.PoliteCallFactory;
import dev.polite.okhttp.PoliteInterceptor;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import okhttp3.Call;
import okhttp3.Callback;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link PoliteCallFactory} on the OkHttp under test, on real time: a call that waits for its
 * pace holds no dispatcher thread, and cancelling it ends it at once with an
 * {@link InterruptedIOException}, reported once.
 */
@Timeout(30)
class CallFactoryOnRealOkHttpTest {
  @Test
  void aWaitingCallHoldsNoThreadAndACancelEndsIt() throws Exception {
    try (LocalServer server = new LocalServer(path -> Reply.ok())) {
      OkHttpClient client = new OkHttpClient.Builder()
          .addInterceptor(PoliteInterceptor.builder().startingRate(0.1).build()) // one per 10 s
          .build();
      PoliteCallFactory calls = PoliteCallFactory.create(client);
      try (Response first = calls.newCall(get(server, "/first")).execute()) {
        assertThat(first.code()).isEqualTo(200);
      }

      Call waiting = calls.newCall(get(server, "/waiting"));
      CompletableFuture<IOException> failure = new CompletableFuture<>();
      waiting.enqueue(new Callback() {
        @Override
        public void onResponse(Call call, Response response) {
          response.close();
          failure.completeExceptionally(new AssertionError("it went: " + response.code()));
        }

        @Override
        public void onFailure(Call call, IOException e) {
          if (!failure.complete(e)) {
            throw new AssertionError("reported twice", e);
          }
        }
      });
      assertThat(client.dispatcher().runningCallsCount()).as("no thread waits for the pace").isZero();
      waiting.cancel();
      assertThat(failure.get(5, TimeUnit.SECONDS)).isInstanceOf(InterruptedIOException.class);
      assertThat(server.paths()).containsExactly("/first");
    }
  }

  private static Request get(LocalServer server, String path) {
    return new Request.Builder().url(server.url(path)).build();
  }
}
