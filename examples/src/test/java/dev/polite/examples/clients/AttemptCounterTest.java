package dev.polite.examples.clients;

import static org.assertj.core.api.Assertions.assertThat;

import dev.polite.examples.ThreadPerConnectionServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link AttemptCounter} against a server that closes a kept-alive connection while it sits idle
 * in OkHttp's pool, as a keep-alive timeout does, quietly or with a parting 408. OkHttp reuses it
 * for the next GET without a check; the server never reads what is written on it. The counter
 * finds the close before anything is written, so {@code sent} stays what the server read, and
 * OkHttp sends the call on a new connection. (Probing at once here, where the real counter waits
 * for a second of idleness; the test waits for the server's close, not for time.)
 */
class AttemptCounterTest {
  private IdleClosingServer server;

  @BeforeEach
  void start() throws IOException {
    server = new IdleClosingServer();
  }

  @AfterEach
  void stop() throws IOException {
    server.close();
  }

  @ParameterizedTest(name = "parting 408: {0}")
  @ValueSource(booleans = {false, true})
  void aPooledConnectionTheServerClosedIsNoAttempt(boolean parting408) throws Exception {
    AttemptCounter counter = new AttemptCounter(System.nanoTime(), 0);
    OkHttpClient client = counter.addTo(new OkHttpClient.Builder()).build();
    CallAttempts first = new CallAttempts();
    CallAttempts second = new CallAttempts();

    assertThat(get(client, first)).isEqualTo(200);
    server.closeIdleConnections(parting408);
    assertThat(get(client, second)).isEqualTo(200);

    assertThat(server.requestsRead()).isEqualTo(2);
    assertThat(counter.sent()).as("what the server read").isEqualTo(2);
    assertThat(counter.staleConnections()).isEqualTo(1);
    assertThat(counter.attempts()).extracting(SentAttempt::status).containsExactly(200, 200);
    assertThat(List.of(first.attempts(), second.attempts())).as("one attempt each on the wire").containsExactly(1, 1);
    assertThat(server.connectionsAccepted()).as("the second call went on a new connection").isEqualTo(2);
  }

  private int get(OkHttpClient client, CallAttempts attempts) throws IOException {
    Request request = CallAttempts.tag(new Request.Builder().url(server.url()).build(), attempts);
    try (Response response = client.newCall(request).execute()) {
      response.body().bytes();
      return response.code();
    }
  }

  /** Answers every request 200 in HTTP/1.1, keeping the connection, until told to close the idle ones. */
  private static final class IdleClosingServer extends ThreadPerConnectionServer {
    private final Set<Socket> idle = ConcurrentHashMap.newKeySet();
    private final AtomicInteger requests = new AtomicInteger();
    private final AtomicInteger accepted = new AtomicInteger();

    IdleClosingServer() throws IOException {
      super("idle-closing-server");
      start();
    }

    String url() {
      return url("/api/items");
    }

    int requestsRead() {
      return requests.get();
    }

    int connectionsAccepted() {
      return accepted.get();
    }

    /** Closes every connection waiting for its next request, each after a 408 if asked; returns once closed. */
    void closeIdleConnections(boolean parting408) throws IOException {
      for (Socket connection : idle) {
        if (parting408) {
          connection.getOutputStream().write(
              "HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n"
                  .getBytes(StandardCharsets.US_ASCII));
        }
        connection.close();
        idle.remove(connection);
      }
    }

    @Override
    protected void serve(Socket connection) throws IOException {
      accepted.incrementAndGet();
      InputStream in = connection.getInputStream();
      OutputStream out = connection.getOutputStream();
      while (readHead(in)) {
        requests.incrementAndGet();
        idle.add(connection); // before the answer: once the client has it, the connection is idle
        out.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}".getBytes(StandardCharsets.US_ASCII));
        out.flush();
      }
    }
  }
}
