package dev.polite.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code --drop-every N}: a server that reads every Nth request and closes its connection with no
 * answer, counted in {@code /stats} as dropped, so that what a client says it sent can be checked
 * against what the server read (issue 48). Raw sockets, so no client sends anything again.
 */
class DropEveryTest extends ServedDemoTest {
  @Test
  void everyNthRequestIsReadThenDroppedAndCountedApart() throws Exception {
    DemoServer server = start(DemoServer.builder().limit(100).dropEvery(3));

    List<String> answers = new ArrayList<>();
    for (int i = 0; i < 7; i++) {
      answers.add(statusLine(server, "/api/items"));
    }

    assertThat(answers).containsExactly("HTTP/1.1 200 OK", "HTTP/1.1 200 OK", "", "HTTP/1.1 200 OK",
        "HTTP/1.1 200 OK", "", "HTTP/1.1 200 OK");
    StatsSnapshot stats = server.stats();
    assertThat(stats.dropped()).isEqualTo(2);
    assertThat(stats.admitted()).as("the limiter never saw the dropped ones").isEqualTo(5);
    assertThat(stats.rejected()).isZero();
    JsonNode json = JSON.readTree(get(server, "/stats").body());
    assertThat(json.get("dropEvery").asInt()).isEqualTo(3);
    assertThat(json.get("dropped").asLong()).isEqualTo(2);
    assertThat(statusLine(server, "/health")).as("only /api/ is dropped, and /health is not counted")
        .isEqualTo("HTTP/1.1 200 OK");
    assertThat(statusLine(server, "/api/items")).isEqualTo("HTTP/1.1 200 OK");
    assertThat(statusLine(server, "/api/items")).isEmpty();
  }

  @Test
  void itIsOffByDefaultAndRefusesOne() {
    assertThat(DemoServer.builder().build().dropEvery()).isZero();
    assertThat(DemoServer.builder().dropEvery(2).build().dropEvery()).isEqualTo(2);
    assertThatThrownBy(() -> DemoServer.builder().dropEvery(1))
        .hasMessage("dropEvery: must be 0 (off) or at least 2, was 1");
    assertThatThrownBy(() -> DemoServer.builder().dropEvery(-1)).hasMessageStartingWith("dropEvery:");
    DemoServerCommand command = new DemoServerCommand();
    command.commandLine().parseArgs("--drop-every", "4");
    assertThat(command.config().dropEvery()).isEqualTo(4);
    assertThat(command.config().toString()).contains("drop-every=4");
    assertThat(new DemoServerCommand().commandLine().getUsageMessage()).contains("--drop-every=N");
  }

  /** The status line of one GET on a connection of its own, or "" when the server closed it unanswered. */
  private static String statusLine(DemoServer server, String path) throws IOException {
    try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), server.url().getPort())) {
      socket.setSoTimeout(5_000);
      socket.getOutputStream().write(("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
          .getBytes(StandardCharsets.US_ASCII));
      InputStream in = socket.getInputStream();
      ByteArrayOutputStream answer = new ByteArrayOutputStream();
      in.transferTo(answer);
      String text = answer.toString(StandardCharsets.US_ASCII);
      int end = text.indexOf("\r\n");
      return end < 0 ? text : text.substring(0, end);
    }
  }
}
