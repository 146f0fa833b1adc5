package dev.polite.examples.load;

import dev.polite.examples.clients.CallAttempts;
import dev.polite.examples.clients.WireCount;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import okhttp3.HttpUrl;

/**
 * One client under load, made for one run on its engine ({@link OkHttpLoadClient},
 * {@link JdkLoadClient}): it sends the run's GETs, blocking or not, counts each call's attempts
 * into the call's {@link CallAttempts}, and counts what reached the server ({@link #wire()}). {@link LoadRunner}
 * drives it and tallies what its calls came to; everything engine-specific is here.
 *
 * <p>Thread-safe: the run's workers share it.
 *
 * <p>Usage: {@code try (LoadClient client = ...) { int status = client.send(url, new CallAttempts()); client.wire().sent(); }}
 */
interface LoadClient extends AutoCloseable {
  /**
   * Sends one GET to {@code url} on this thread, reads its answer's body whole (so its connection
   * can be used again) and returns its status.
   *
   * @throws IOException when the call ended without an answer
   */
  int send(HttpUrl url, CallAttempts attempts) throws IOException;

  /**
   * As {@link #send}, holding no thread while it waits: the future completes with the status, or
   * fails with the {@link IOException} that ended the call.
   */
  CompletableFuture<Integer> sendAsync(HttpUrl url, CallAttempts attempts);

  /** Cancels every call in flight, and fails every later call at once. Callable from any thread. */
  void cut();

  /** What reached the server, counted on the wire. */
  WireCount wire();

  /** Frees what the client holds (its connections, a relay); the counts stay readable. */
  @Override
  void close();
}
