package dev.polite.examples.load;

import static org.assertj.core.api.Assertions.assertThat;

import dev.polite.examples.clients.ClientKind;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import okhttp3.HttpUrl;
import okhttp3.OkHttpClient;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A zoo cell's last resort, {@link LoadRunner#cut()}, on every engine and both ways of calling:
 * against a server that reads a request and never answers, the cut ends the call on the wire,
 * the calls waiting behind it for the key's first answer, and every call not yet made, each
 * counted as failed, and the run returns.
 */
class LoadRunnerCutTest {
  @ParameterizedTest
  @CsvSource({"polite, false", "polite, true", "polite-jdk, false", "polite-jdk, true"})
  void aCutEndsEveryCallInFlightAndFailsTheRest(String client, boolean async) throws Exception {
    ExecutorService threads = Executors.newCachedThreadPool();
    try (SilentServer server = SilentServer.start(threads)) {
      LoadRunner runner = new LoadRunner(new OkHttpClient(), ClientKind.parse(client), 4.5, 5);

      Future<RunResult> run = threads.submit(() -> runner.run(List.of(server.url()), 6, 3, null, async));
      assertThat(server.read.await(30, TimeUnit.SECONDS)).as("a request reached the server").isTrue();
      runner.cut();
      RunResult result = run.get(30, TimeUnit.SECONDS); // a guard against a hang, not a measure

      assertThat(runner.wasCut()).isTrue();
      assertThat(result.succeeded()).isZero();
      assertThat(result.failed()).as("all six, in flight, waiting or not yet made").isEqualTo(6);
      assertThat(result.sent()).as("what reached the server").isEqualTo(server.requests.size());
    } finally {
      threads.shutdownNow();
    }
  }

  /** Reads each request's head and never answers; {@link #read} opens at the first. */
  private static final class SilentServer implements AutoCloseable {
    final ServerSocket socket;
    final CountDownLatch read = new CountDownLatch(1);
    final List<Socket> requests = new CopyOnWriteArrayList<>();

    private SilentServer(ServerSocket socket) {
      this.socket = socket;
    }

    static SilentServer start(ExecutorService threads) throws IOException {
      SilentServer server = new SilentServer(new ServerSocket(0, 50, InetAddress.getLoopbackAddress()));
      threads.execute(() -> {
        while (!server.socket.isClosed()) {
          try {
            Socket connection = server.socket.accept();
            threads.execute(() -> server.hold(connection));
          } catch (IOException closed) {
            return;
          }
        }
      });
      return server;
    }

    HttpUrl url() {
      return HttpUrl.get("http://127.0.0.1:" + socket.getLocalPort() + "/api/items");
    }

    private void hold(Socket connection) {
      try {
        InputStream in = connection.getInputStream();
        int matched = 0; // of "\r\n\r\n"
        int b;
        while ((b = in.read()) != -1) {
          matched = b == (matched % 2 == 0 ? '\r' : '\n') ? matched + 1 : (b == '\r' ? 1 : 0);
          if (matched == 4) {
            requests.add(connection);
            read.countDown();
            matched = 0;
          }
        }
      } catch (IOException e) {
        // closed by the client: the call was cut
      }
    }

    @Override
    public void close() throws IOException {
      socket.close();
      for (Socket connection : requests) {
        connection.close();
      }
    }
  }
}
