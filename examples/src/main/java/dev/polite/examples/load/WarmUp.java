package dev.polite.examples.load;

import dev.polite.demo.DemoServer;
import dev.polite.examples.clients.ClientKind;
import java.io.IOException;
import java.util.List;
import okhttp3.HttpUrl;
import okhttp3.OkHttpClient;

/**
 * Loads and JITs every client's classes (OkHttp or the JDK's client, the demo server, polite and
 * Failsafe, the adaptive throttle, the peers, the counters) on a throwaway server's unlimited
 * {@code /health}, through the {@link LoadRunner} the measured runs use, so that no measured run
 * pays the JVM's first-use cost (class loading and the first compilations) and the rows compare
 * clients, not the JVM's start. The measured runs then start with fresh clients and fresh
 * servers, so nothing learned here carries over.
 *
 * <p>Usage: {@code WarmUp.clients(new OkHttpClient(), List.of(ClientKind.POLITE), 4.5, 5);}
 */
public final class WarmUp {
  private static final int CALLS_PER_CLIENT = 5;

  private WarmUp() {}

  /**
   * Sends a few calls through a throwaway client of each of {@code kinds}.
   *
   * @param pacedRate the rate the paced clients are built with (they are not slowed by it here:
   *     five calls fit their burst)
   * @param pacedBurst the burst they are built with
   * @throws IOException if the throwaway server cannot be reached
   */
  public static void clients(OkHttpClient base, List<ClientKind> kinds, double pacedRate, double pacedBurst)
      throws IOException, InterruptedException {
    try (DemoServer server = DemoServer.builder().start()) {
      HttpUrl health = HttpUrl.get(server.url() + "/health");
      for (ClientKind kind : kinds) {
        try {
          new LoadRunner(base, kind, pacedRate, pacedBurst).run(health, CALLS_PER_CLIENT, 1, null);
        } catch (UnreachableException e) {
          throw new IOException(e.getMessage(), e);
        }
      }
    }
  }
}
