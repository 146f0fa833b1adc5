package dev.polite.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The HTTP/1.1 connection as a raw socket sees it: answers in request order, the connection
 * kept or closed as the request asks, a request without {@code Host} refused, and a request whose
 * client left giving its concurrency slot back at once. Real sockets on loopback, bounds generous
 * enough for a busy CI machine.
 */
class HttpConnectionTest {
  private static final Pattern STATUS = Pattern.compile("HTTP/1\\.[01] (\\d{3})");

  private final List<DemoServer> servers = new ArrayList<>();

  @AfterEach
  void stop() {
    servers.forEach(DemoServer::close);
  }

  private DemoServer start(DemoServerConfig.Builder builder) {
    DemoServer server = builder.start();
    servers.add(server);
    return server;
  }

  private static Socket connect(DemoServer server) throws IOException {
    Socket socket = new Socket();
    socket.connect(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), server.port()), 5_000);
    socket.setSoTimeout(5_000);
    return socket;
  }

  private static void send(Socket socket, String text) throws IOException {
    socket.getOutputStream().write(text.getBytes(StandardCharsets.ISO_8859_1));
    socket.getOutputStream().flush();
  }

  /** Everything the server sends until it closes the connection. */
  private static String readToEnd(Socket socket) throws IOException {
    return new String(socket.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
  }

  /** The statuses of the first {@code count} answers on {@code socket}, in order. */
  private static List<String> statuses(Socket socket, int count) throws IOException {
    InputStream in = socket.getInputStream();
    StringBuilder seen = new StringBuilder();
    List<String> statuses = new ArrayList<>();
    byte[] buffer = new byte[4096];
    while (statuses.size() < count) {
      int read = in.read(buffer);
      if (read < 0) {
        break;
      }
      seen.append(new String(buffer, 0, read, StandardCharsets.ISO_8859_1));
      statuses.clear();
      Matcher matcher = STATUS.matcher(seen);
      while (matcher.find()) {
        statuses.add(matcher.group(1));
      }
    }
    return statuses;
  }

  @Test
  void pipelinedRequestsAreAnsweredInOrderEvenWhenTheFirstWaits() throws Exception {
    // The first is admitted and held 300 ms (--latency); the second is refused at once. A server
    // that answered each as soon as it could would send the 429 first.
    DemoServer server = start(DemoServer.builder().limit(1).window(Duration.ofMinutes(1)).burst(1)
        .latency(Duration.ofMillis(300)));
    try (Socket socket = connect(server)) {
      send(socket, "GET /api/a HTTP/1.1\r\nHost: x\r\n\r\nGET /api/b HTTP/1.1\r\nHost: x\r\n\r\n"
          + "GET /health HTTP/1.1\r\nHost: x\r\n\r\n");
      assertThat(statuses(socket, 3)).containsExactly("200", "429", "200");
    }
  }

  @Test
  void http10WithoutKeepAliveIsAnsweredThenClosedAndWithItKeptOpen() throws Exception {
    DemoServer server = start(DemoServer.builder());
    try (Socket socket = connect(server)) {
      send(socket, "GET /health HTTP/1.0\r\n\r\n");
      assertThat(readToEnd(socket)).startsWith("HTTP/1.0 200").contains("{\"status\":\"ok\"}");
    }
    try (Socket socket = connect(server)) {
      send(socket, "GET /health HTTP/1.0\r\nConnection: keep-alive\r\n\r\n");
      assertThat(statuses(socket, 1)).containsExactly("200");
      send(socket, "GET /health HTTP/1.0\r\nConnection: keep-alive\r\n\r\n");
      assertThat(statuses(socket, 1)).as("a second request on the same connection").containsExactly("200");
    }
  }

  @Test
  void anHttp11RequestWithoutHostOrWithTwoIsRefused() throws Exception {
    DemoServer server = start(DemoServer.builder());
    for (String request : new String[] {
        "GET /health HTTP/1.1\r\n\r\n",
        "GET /health HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n",
        "GET /health HTTP/1.1\r\nHost: a/b\r\n\r\n"}) {
      try (Socket socket = connect(server)) {
        send(socket, request);
        assertThat(readToEnd(socket)).as(request).startsWith("HTTP/1.1 400");
      }
    }
    try (Socket socket = connect(server)) {
      send(socket, "GET /health HTTP/1.1\r\nHost: [::1]:8080\r\n\r\n");
      assertThat(statuses(socket, 1)).as("an IP literal with a port").containsExactly("200");
    }
  }

  @Test
  void aClientThatLeavesWhileItsRequestWaitsGivesItsConcurrencySlotBack() throws Exception {
    // One request in flight per key, each held 3 s. Once the first client is seen holding the slot
    // (another request is refused for concurrency), it leaves; the slot is free at once, not when
    // its 3 s timer fires, so a request sent well before then is admitted.
    DemoServer server = start(DemoServer.builder().concurrency(1).latency(Duration.ofSeconds(3)));
    long firstSent = System.nanoTime();
    Socket first = connect(server);
    send(first, "GET /api/a HTTP/1.1\r\nHost: x\r\n\r\n");
    String refused = "";
    while (!refused.contains("\"concurrency\"")) { // until the server holds the first request
      try (Socket other = connect(server)) {
        send(other, "GET /api/a HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        refused = readToEnd(other);
      }
    }
    first.close();
    String status = "";
    long sent = 0;
    while (!status.equals("200")) { // refused until the server has seen the close, then admitted
      try (Socket again = connect(server)) {
        sent = System.nanoTime();
        send(again, "GET /api/a HTTP/1.1\r\nHost: x\r\n\r\n");
        status = statuses(again, 1).get(0);
      }
    }
    assertThat((sent - firstSent) / 1_000_000).as("ms after the first request that one was admitted")
        .isLessThan(2_500L);
  }

  /**
   * 100,000 requests in one write on one connection: every hundredth an admitted /api/ request the
   * server holds 1 ms (--latency), the rest /health, answered at once. While one is held the server
   * reads nothing more, but the read already in hand (up to 64 KB, about 1,900 of these requests)
   * is decoded and queued behind it; the queue used to be answered by recursion, one set of stack
   * frames per queued answer, and overflowed the I/O thread's stack, leaving the request under way
   * for ever and its --concurrency slot held. Every one is answered, in order, the last one's
   * {@code Connection: close} closes the connection, and the key's only slot is free after.
   */
  @Test
  void aHundredThousandPipelinedRequestsInOneWriteAreAllAnsweredAndTheSlotIsFreedAfter() throws Exception {
    int total = 100_000;
    DemoServer server = start(DemoServer.builder().limit(1_000_000).window(Duration.ofSeconds(1))
        .concurrency(1).latency(Duration.ofMillis(1)));
    StringBuilder requests = new StringBuilder(total * 40);
    for (int i = 0; i < total - 1; i++) {
      requests.append(i % 100 == 0 ? "GET /api/a HTTP/1.1\r\nHost: x\r\n\r\n" : "GET /health HTTP/1.1\r\nHost: x\r\n\r\n");
    }
    requests.append("GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    try (Socket socket = connect(server)) {
      socket.setSoTimeout(10_000);
      // The answers are read while the requests are written: a server whose peer reads nothing
      // stops reading too, and the write would never end.
      CompletableFuture<long[]> answers = CompletableFuture.supplyAsync(() -> countAnswers(socket));
      send(socket, requests.toString());
      long[] counted = answers.get(60, TimeUnit.SECONDS);
      assertThat(counted[0]).as("answers read before the server closed (or a 10 s silence)").isEqualTo(total);
      assertThat(counted[1]).as("the connection was closed after the last answer").isEqualTo(1);
    }
    try (Socket other = connect(server)) {
      send(other, "GET /api/a HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
      assertThat(readToEnd(other)).as("the key's one --concurrency slot is free").startsWith("HTTP/1.1 200");
    }
  }

  /** {answers seen, 1 if the connection then closed or 0 if it went silent}; each answer starts "HTTP/1.1 ". */
  private static long[] countAnswers(Socket socket) {
    byte[] marker = "HTTP/1.1 ".getBytes(StandardCharsets.ISO_8859_1);
    long seen = 0;
    int matched = 0;
    byte[] buffer = new byte[65_536];
    try {
      InputStream in = socket.getInputStream();
      for (int read; (read = in.read(buffer)) >= 0; ) {
        for (int i = 0; i < read; i++) {
          matched = buffer[i] == marker[matched] ? matched + 1 : buffer[i] == marker[0] ? 1 : 0;
          if (matched == marker.length) {
            seen++;
            matched = 0;
          }
        }
      }
      return new long[] {seen, 1};
    } catch (IOException silentOrReset) {
      return new long[] {seen, 0};
    }
  }
}
