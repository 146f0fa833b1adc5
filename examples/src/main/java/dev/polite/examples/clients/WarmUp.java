package dev.polite.examples.clients;

import dev.polite.demo.DemoServer;
import java.io.IOException;
import java.util.List;
import okhttp3.Interceptor;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;

/**
 * Loads and JITs every client's classes (OkHttp, the demo server, polite and Failsafe, the
 * adaptive throttle, the peers) on a throwaway server's unlimited {@code /health}, through
 * throwaway interceptors, so that no measured run pays the JVM's first-use cost (class loading and
 * the first compilations) and the rows compare clients, not the JVM's start. The measured runs then start with
 * fresh interceptors and fresh servers, so nothing learned here carries over.
 *
 * <p>Usage: {@code WarmUp.clients(new OkHttpClient(), List.of(ClientKind.POLITE), 4.5, 5);}
 */
public final class WarmUp {
  private static final int CALLS_PER_CLIENT = 5;

  private WarmUp() {}

  /**
   * Sends a few calls through a throwaway chain of each of {@code kinds}.
   *
   * @param pacedRate the rate the paced clients are built with (they are not slowed by it here:
   *     five calls fit their burst)
   * @param pacedBurst the burst they are built with
   */
  public static void clients(OkHttpClient base, List<ClientKind> kinds, double pacedRate, double pacedBurst)
      throws IOException {
    try (DemoServer server = DemoServer.builder().start()) {
      Request health = new Request.Builder().url(server.url() + "/health").build();
      for (ClientKind kind : kinds) {
        OkHttpClient.Builder builder = base.newBuilder();
        for (Interceptor interceptor : kind.interceptors(pacedRate, pacedBurst)) {
          builder.addInterceptor(interceptor);
        }
        OkHttpClient client = new AttemptCounter(System.nanoTime()).addTo(builder).build();
        for (int i = 0; i < CALLS_PER_CLIENT; i++) {
          try (Response response = client.newCall(health).execute()) {
            response.body().bytes();
          }
        }
      }
    }
  }
}
