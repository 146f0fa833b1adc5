package dev.polite.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The probes an attacker would try, on loopback, each with the outcome the server promises (see
 * the README's "Under abuse"). Real sockets and real time, with bounds generous enough for a busy
 * two-core CI machine; the flood is sized to fit a small file limit.
 *
 * <p>The attacker connects from 127.0.0.2 (Linux answers all of 127.0.0.0/8 on loopback), so the
 * server can tell it from the health check, which comes from 127.0.0.1 as a monitor would come
 * from its own address.
 */
class AbuseTest {
  private static final String ATTACKER = "127.0.0.2";
  private static final String HALF_A_REQUEST = "GET /api/items HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ";

  private final List<DemoServer> servers = new ArrayList<>();
  private final List<Socket> sockets = new ArrayList<>();

  @AfterEach
  void stop() {
    sockets.forEach(AbuseTest::closeQuietly);
    servers.forEach(DemoServer::close);
  }

  private DemoServer start(DemoServerConfig.Builder builder) {
    DemoServer server = builder.start();
    servers.add(server);
    return server;
  }

  private Socket connect(DemoServer server, String from) throws IOException {
    Socket socket = new Socket();
    sockets.add(socket);
    try {
      socket.bind(new InetSocketAddress(InetAddress.getByName(from), 0));
    } catch (BindException e) {
      Assumptions.abort(from + " is not a loopback address on this machine (Linux answers all of 127.0.0.0/8; "
          + "macOS needs 'sudo ifconfig lo0 alias " + from + "')");
    }
    socket.connect(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), server.port()), 5_000);
    return socket;
  }

  /** Sends {@code text} and returns how long the server took to close the connection, in ms. */
  private static long millisUntilClosed(Socket socket, String text, Duration atMost) throws IOException {
    long start = System.nanoTime();
    OutputStream out = socket.getOutputStream();
    out.write(text.getBytes(StandardCharsets.ISO_8859_1));
    out.flush();
    socket.setSoTimeout((int) atMost.toMillis());
    InputStream in = socket.getInputStream();
    try {
      while (in.read() >= 0) {
        // whatever the server says before it closes (a 400, a 408) is fine: the close is the point
      }
    } catch (SocketTimeoutException e) {
      return Long.MAX_VALUE;
    } catch (IOException reset) {
      // a reset is a close too
    }
    return (System.nanoTime() - start) / 1_000_000;
  }

  /** One HTTP/1.1 GET on a fresh connection from 127.0.0.1: the status line, or a timeout. */
  private static String get(DemoServer server, String path, Duration timeout) throws IOException {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), server.port()), (int) timeout.toMillis());
      socket.setSoTimeout((int) timeout.toMillis());
      socket.getOutputStream().write(("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
          .getBytes(StandardCharsets.ISO_8859_1));
      byte[] answer = socket.getInputStream().readNBytes(12);
      return new String(answer, StandardCharsets.ISO_8859_1);
    }
  }

  /** The process's file limit; a large one when it cannot be read. */
  private static long fileLimit() {
    if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.UnixOperatingSystemMXBean unix) {
      return unix.getMaxFileDescriptorCount();
    }
    return 1_000_000;
  }

  private static void closeQuietly(Socket socket) {
    try {
      socket.close();
    } catch (IOException ignored) {
      // closing a test's socket: nothing to do
    }
  }

  @Test
  void aHalfSentRequestIsClosedWithinTheParseTimeout() throws Exception {
    DemoServer server = start(DemoServer.builder().parseTimeout(Duration.ofMillis(300)));
    long closedAfter = millisUntilClosed(connect(server, ATTACKER), HALF_A_REQUEST, Duration.ofSeconds(10));
    assertThat(closedAfter).as("ms until a half-sent request was closed").isBetween(250L, 3_000L);
  }

  @Test
  void aSilentConnectionIsClosedWithinTheIdleTimeout() throws Exception {
    DemoServer server = start(DemoServer.builder().idleTimeout(Duration.ofMillis(300)));
    long closedAfter = millisUntilClosed(connect(server, ATTACKER), "", Duration.ofSeconds(10));
    assertThat(closedAfter).as("ms until a silent connection was closed").isBetween(250L, 3_000L);
  }

  @Test
  void aDribbledBodyIsAnsweredAndTheConnectionClosedNotHeld() throws Exception {
    DemoServer server = start(DemoServer.builder());
    Socket socket = connect(server, ATTACKER);
    long closedAfter = millisUntilClosed(socket,
        "POST /api/items HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100000\r\n\r\nfirst bytes", Duration.ofSeconds(10));
    assertThat(closedAfter).as("ms until a connection dribbling its body was closed").isLessThan(2_000L);
  }

  @Test
  void malformedAndOversizedRequestsAreAnswered400AndClosedQuickly() throws Exception {
    DemoServer server = start(DemoServer.builder());
    String[] probes = {
        "GARBAGE\r\n\r\n",
        "GET /api/items HTTP/1.1\r\nHost: 127.0.0.1\r\nBad Header Name: x\r\n\r\n",
        "GET /api/items HTTP/1.1\r\nHost: a b c\r\n\r\n",
        "GET /api/items HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + "x".repeat(2 * 1024 * 1024) + "\r\n\r\n",
    };
    for (String probe : probes) {
      Socket socket = connect(server, ATTACKER);
      socket.setSoTimeout(5_000);
      long start = System.nanoTime();
      try {
        socket.getOutputStream().write(probe.getBytes(StandardCharsets.ISO_8859_1));
      } catch (IOException closedMidWrite) {
        // the server may refuse an oversized request before it has all been sent
      }
      String status;
      try {
        status = new String(socket.getInputStream().readNBytes(12), StandardCharsets.ISO_8859_1);
      } catch (IOException reset) {
        status = "reset";
      }
      long millis = (System.nanoTime() - start) / 1_000_000;
      assertThat(status).as("answer to %.40s", probe).isEqualTo("HTTP/1.1 400");
      assertThat(millis).as("ms to answer %.40s", probe).isLessThan(2_000L);
    }
    assertThat(get(server, "/health", Duration.ofSeconds(5))).isEqualTo("HTTP/1.1 200");
  }

  @Test
  void oneClientCannotTakeMoreThanItsShareOfConnections() throws Exception {
    DemoServer server = start(DemoServer.builder().maxConnectionsPerClient(5));
    for (int i = 0; i < 5; i++) {
      // A whole request answered first: the server has surely counted this connection before the
      // next one arrives (two I/O threads accept in parallel, so otherwise any of the six may be
      // the one refused).
      Socket held = connect(server, ATTACKER);
      held.setSoTimeout(5_000);
      held.getOutputStream().write("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
      assertThat(new String(held.getInputStream().readNBytes(12), StandardCharsets.ISO_8859_1)).isEqualTo("HTTP/1.1 200");
    }
    long sixth = millisUntilClosed(connect(server, ATTACKER), HALF_A_REQUEST, Duration.ofSeconds(10));
    assertThat(sixth).as("ms until the sixth connection from one address was closed").isLessThan(2_000L);
    assertThat(get(server, "/health", Duration.ofSeconds(5))).isEqualTo("HTTP/1.1 200");
  }

  @Test
  void beyondTheConnectionCapNewOnesWaitAndAreServedOnceTheFloodLeaves() throws Exception {
    DemoServer server = start(DemoServer.builder().maxConnections(20).maxConnectionsPerClient(0));
    List<Socket> flood = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      Socket socket = connect(server, ATTACKER);
      socket.getOutputStream().write(HALF_A_REQUEST.getBytes(StandardCharsets.ISO_8859_1));
      flood.add(socket);
    }
    assertThat(statusOrTimeout(server, Duration.ofMillis(500))).as("the 21st waits in the backlog").isEqualTo("timeout");
    flood.forEach(AbuseTest::closeQuietly);
    long start = System.nanoTime();
    assertThat(get(server, "/health", Duration.ofSeconds(5))).isEqualTo("HTTP/1.1 200");
    assertThat((System.nanoTime() - start) / 1_000_000).as("ms until served once the flood left").isLessThan(2_000L);
  }

  private static String statusOrTimeout(DemoServer server, Duration timeout) throws IOException {
    try {
      return get(server, "/health", timeout);
    } catch (SocketTimeoutException e) {
      return "timeout";
    }
  }

  @Test
  void aWaitLongerThanTheIdleTimeoutIsNotCutShort() throws Exception {
    // The idle timeout is for a silent peer, not for the server's own simulated work.
    DemoServer server = start(DemoServer.builder().idleTimeout(Duration.ofMillis(200)).latency(Duration.ofMillis(800)));
    assertThat(get(server, "/api/items", Duration.ofSeconds(10))).isEqualTo("HTTP/1.1 200");
  }

  @Test
  void healthAnswersWithin100msDuringAFloodOfHalfSentRequests() throws Exception {
    // 1,500 sockets from one address against a per-client cap of 1,000 (the default): a thousand
    // held open, half-sent, and five hundred refused; scaled down from the 20,000 of the original
    // probe, and further where the file limit is small (each socket is two descriptors here).
    int flood = (int) Math.min(1_500, (fileLimit() - 1_024) / 2);
    Assumptions.assumeTrue(flood >= 150, "the file limit (" + fileLimit() + ") leaves no room for a flood");
    int perClient = flood * 2 / 3;
    DemoServer server = start(DemoServer.builder().maxConnectionsPerClient(perClient));
    for (int i = 0; i < flood; i++) {
      Socket socket = connect(server, ATTACKER);
      try {
        socket.getOutputStream().write(HALF_A_REQUEST.getBytes(StandardCharsets.ISO_8859_1));
      } catch (IOException refused) {
        // the server closed it already: the cap at work
      }
    }
    long[] millis = new long[21];
    for (int i = 0; i < millis.length; i++) {
      long start = System.nanoTime();
      assertThat(get(server, "/health", Duration.ofSeconds(5))).isEqualTo("HTTP/1.1 200");
      millis[i] = (System.nanoTime() - start) / 1_000_000;
    }
    Arrays.sort(millis);
    assertThat(millis[millis.length / 2]).as("median ms of /health during the flood: " + Arrays.toString(millis))
        .isLessThan(100L);
    assertThat(millis[millis.length - 1]).as("slowest ms of /health during the flood").isLessThan(1_000L);
  }
}
