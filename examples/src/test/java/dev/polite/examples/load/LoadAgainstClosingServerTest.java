package dev.polite.examples.load;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.polite.examples.Cli;
import dev.polite.examples.ThreadPerConnectionServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code load} against a server that answers in HTTP/1.0 and closes each connection after its
 * answer, sending no {@code Connection: close}, as Python's {@code http.server} does. OkHttp pools
 * such a connection all the same; the next call's attempt on it would fail before any answer, and
 * OkHttp would send it again on a new connection by itself ({@code retryOnConnectionFailure}). The
 * server never reads the first of those two, so {@code sent} must not count it, and it is no
 * retry. Issue 27, item 12: {@code --requests 10} reported sent 19, retries 9. And against servers
 * that do read what is re-sent, every attempt counts (issue 48, item 9;
 * {@link LoadAgainstDroppingServerTest}).
 */
class LoadAgainstClosingServerTest {
  private OneAnswerServer server;

  @AfterEach
  void stop() throws IOException {
    if (server != null) {
      server.close();
    }
  }

  @Test
  void sentIsWhatTheServerReadAndAStaleConnectionIsNoAttempt() throws IOException {
    server = OneAnswerServer.http10(n -> 200);

    Cli cli = Cli.run("load", "--url", server.url("/"), "--requests", "10", "--json");

    assertThat(cli.exit).as(cli.toString()).isZero();
    JsonNode json = cli.lastJson();
    assertThat(server.requests()).isEqualTo(10);
    assertThat(json.get("succeeded").asInt()).isEqualTo(10);
    assertThat(json.get("sent").asLong()).as("what the server read").isEqualTo(10);
    assertThat(json.get("retries").asLong()).as("polite retried nothing").isZero();
    assertThat(json.get("stale_connections").asLong())
        .as("each call after the first met the closed pooled connection once").isEqualTo(9);

    Cli text = Cli.run("load", "--url", server.url("/"), "--requests", "3");
    assertThat(text.out).startsWith("polite: 3/3 ok  0 rejected  3 requests sent  0 retries")
        .contains("  2 stale connections met");
  }

  @Test
  void concurrentAndAsyncCallsAreCountedAsTheServerSawThem() throws IOException {
    server = OneAnswerServer.http10(n -> 200);

    for (String[] args : new String[][] {
        {"--client", "naive", "--concurrency", "4"},
        {"--client", "polite", "--concurrency", "4", "--async"},
        {"--client", "polite-jdk", "--concurrency", "4"},
        {"--client", "polite-jdk", "--concurrency", "4", "--async"}}) {
      int before = server.requests();
      Cli cli = Cli.run(concat(new String[] {"load", "--url", server.url("/"), "--requests", "12", "--json"}, args));

      assertThat(cli.exit).as(cli.toString()).isZero();
      JsonNode json = cli.lastJson();
      assertThat(server.requests() - before).isEqualTo(12);
      assertThat(json.get("sent").asLong()).as(String.join(" ", args)).isEqualTo(12);
      assertThat(json.get("retries").asLong()).as(String.join(" ", args)).isZero();
    }
  }

  /**
   * The JDK client sends a GET again by itself, on a new connection, when a connection it reused
   * closes before any answer. Against a server that answers one request per kept-alive connection
   * and closes it on reading the next, every call after the first goes out twice: the relay counts
   * both in {@code sent}, as the server read both, and the second is a retry of its call, though
   * not one of polite's.
   */
  @Test
  void theJdkClientsOwnResendsAreSentAndRetries() throws IOException {
    server = OneAnswerServer.keepAliveOnce();

    Cli cli = Cli.run("load", "--url", server.url("/"), "--requests", "3", "--client", "polite-jdk", "--json");

    assertThat(cli.exit).as(cli.toString()).isZero();
    JsonNode json = cli.lastJson();
    assertThat(server.requests()).as("calls 2 and 3 each read twice").isEqualTo(5);
    assertThat(json.get("succeeded").asInt()).isEqualTo(3);
    assertThat(json.get("sent").asLong()).as("what the server read").isEqualTo(5);
    assertThat(json.get("retries").asLong()).as("calls 2 and 3 each went out twice").isEqualTo(2);
    assertThat(json.has("stale_connections")).as("the JDK's re-sends are in sent").isFalse();
  }

  /** The client's own retries still count, one each, however many connections they took. */
  @Test
  void theClientsOwnRetriesStillCountOnceEach() throws IOException {
    server = OneAnswerServer.http10(n -> n % 2 == 1 ? 429 : 200); // the 1st, 3rd, ... are refused

    Cli cli = Cli.run("load", "--url", server.url("/"), "--requests", "5", "--client", "naive", "--json");

    assertThat(cli.exit).as(cli.toString()).isZero();
    JsonNode json = cli.lastJson();
    assertThat(server.requests()).isEqualTo(10);
    assertThat(json.get("succeeded").asInt()).isEqualTo(5);
    assertThat(json.get("rejected").asLong()).isEqualTo(5);
    assertThat(json.get("sent").asLong()).isEqualTo(10);
    assertThat(json.get("retries").asLong()).as("one per refused call").isEqualTo(5);
  }

  /**
   * A server that reads a request and then cuts the connection: OkHttp sends the request again on
   * a new connection, and the failure the caller sees is the last one. The server read every one
   * of those, so every one is in {@code sent}, and the re-sends are retries of their call.
   */
  @Test
  void aCutConnectionAndOkHttpsResendAreEachSent() throws Exception {
    try (MockWebServer cutting = new MockWebServer()) {
      cutting.setDispatcher(FirstThenRest.cutAfterFirst()); // answered, then every later call cut
      cutting.start();

      Cli cli = Cli.run("load", "--url", cutting.url("/api/x").toString(), "--requests", "3", "--client", "naive",
          "--json");

      assertThat(cli.exit).as(cli.toString()).isEqualTo(1);
      JsonNode json = cli.lastJson();
      assertThat(json.get("failed").asInt()).isEqualTo(2);
      assertThat(json.get("sent").asLong()).as("every request the server read").isEqualTo(cutting.getRequestCount())
          .isGreaterThan(3);
      assertThat(json.get("retries").asLong()).as("naive retries no I/O error, OkHttp does")
          .isEqualTo(json.get("sent").asLong() - 3);
      assertThat(json.has("stale_connections")).as("the server closed no connection before a request").isFalse();
    }
  }

  private static String[] concat(String[] a, String[] b) {
    String[] all = java.util.Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, all, a.length, b.length);
    return all;
  }

  /**
   * A server that answers one request per connection, each with the status {@code statusOf(n)}
   * gives the n-th request it read (from 1), {@code Content-Length} and no {@code Connection}
   * header. {@link #http10} answers in HTTP/1.0 and then closes the connection, as Python's
   * {@code http.server} does; {@link #keepAliveOnce} answers in HTTP/1.1, so the client keeps the
   * connection, and closes it on reading the next request, unanswered.
   */
  private static final class OneAnswerServer extends ThreadPerConnectionServer {
    private final AtomicInteger requests = new AtomicInteger();
    private final IntFunction<Integer> statusOf;
    private final boolean keepAlive;

    private OneAnswerServer(IntFunction<Integer> statusOf, boolean keepAlive) throws IOException {
      super("one-answer-server");
      this.statusOf = statusOf;
      this.keepAlive = keepAlive;
    }

    static OneAnswerServer http10(IntFunction<Integer> statusOf) throws IOException {
      return start(statusOf, false);
    }

    static OneAnswerServer keepAliveOnce() throws IOException {
      return start(n -> 200, true);
    }

    private static OneAnswerServer start(IntFunction<Integer> statusOf, boolean keepAlive) throws IOException {
      OneAnswerServer server = new OneAnswerServer(statusOf, keepAlive);
      server.start();
      return server;
    }

    /** Requests read so far. */
    int requests() {
      return requests.get();
    }

    @Override
    protected void serve(Socket connection) throws IOException {
      InputStream in = connection.getInputStream();
      if (!readHead(in)) {
        return; // the client left before a whole request
      }
      int status = statusOf.apply(requests.incrementAndGet());
      String body = "hi\n";
      String head = (keepAlive ? "HTTP/1.1 " : "HTTP/1.0 ") + status + (status == 200 ? " OK" : " Too Many Requests")
          + "\r\n"
          + "Server: SimpleHTTP/0.6 Python/3.11.7\r\n"
          + "Content-type: text/html\r\n"
          + "Content-Length: " + body.length() + "\r\n"
          + (status == 429 ? "Retry-After: 0\r\n" : "")
          + "\r\n";
      OutputStream out = connection.getOutputStream();
      out.write((head + body).getBytes(StandardCharsets.US_ASCII));
      out.flush();
      if (keepAlive && readHead(in)) {
        requests.incrementAndGet(); // read, and closed unanswered
      }
    }
  }
}
