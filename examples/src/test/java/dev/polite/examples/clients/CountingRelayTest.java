package dev.polite.examples.clients;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.DataInputStream;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.util.List;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import okhttp3.HttpUrl;
import org.junit.jupiter.api.Test;

/**
 * The relay that counts what the JDK client puts on the wire: it forwards each request and answer
 * whole, sets {@code Host} back to the target's, counts every head it forwards and every
 * rate-limit refusal (a 429, or a 403 with a spent limit, not any 403), and keeps why it could
 * not reach a target. Driven by a plain JDK client, no polite: the relay is the thing measured.
 */
class CountingRelayTest {
  private final HttpClient jdk = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

  @Test
  void itForwardsEachExchangeWholeAndCountsHeadsAndRefusals() throws Exception {
    try (MockWebServer server = new MockWebServer()) {
      server.enqueue(new MockResponse.Builder().code(200).body("first").build());
      server.enqueue(new MockResponse.Builder().code(429).addHeader("Retry-After", "1").body("slow down").build());
      server.enqueue(new MockResponse.Builder().code(403).addHeader("x-ratelimit-remaining", "0")
          .addHeader("x-ratelimit-reset", "1").build());
      server.enqueue(new MockResponse.Builder().code(403).body("forbidden, not limited").build());
      server.start();
      HttpUrl target = server.url("/api/items?page=2");
      long start = System.nanoTime();

      try (CountingRelay relay = CountingRelay.start(List.of(target), start)) {
        HttpUrl through = relay.through(target);
        assertThat(through.port()).isNotEqualTo(target.port());
        assertThat(through.encodedPath()).isEqualTo("/api/items");
        assertThat(through.query()).isEqualTo("page=2");

        List<HttpResponse<String>> answers = new java.util.ArrayList<>();
        for (int i = 0; i < 4; i++) {
          answers.add(jdk.send(HttpRequest.newBuilder(through.uri()).build(), BodyHandlers.ofString()));
        }

        assertThat(answers).extracting(HttpResponse::statusCode).containsExactly(200, 429, 403, 403);
        assertThat(answers.get(0).body()).isEqualTo("first");
        assertThat(answers.get(1).body()).isEqualTo("slow down");
        assertThat(answers.get(1).headers().firstValue("Retry-After")).hasValue("1");
        assertThat(relay.sent()).isEqualTo(4);
        assertThat(relay.rejected()).as("the 429 and the 403 with a spent limit").isEqualTo(2);
        assertThat(relay.attempts()).extracting(SentAttempt::status).containsExactly(200, 429, 403, 403);
        assertThat(relay.attempts()).extracting(SentAttempt::rejected).containsExactly(false, true, true, false);
        assertThat(relay.attempts()).allMatch(attempt -> attempt.sentNanos() >= 0);
        assertThat(relay.unreachable(target)).isNull();
      }
      assertThat(server.getRequestCount()).isEqualTo(4);
      RecordedRequest first = server.takeRequest();
      assertThat(first.getHeaders().get("Host")).as("the target's, as if called directly")
          .isEqualTo(target.host() + ":" + target.port());
      assertThat(first.getTarget()).isEqualTo("/api/items?page=2");
    }
  }

  @Test
  void aTargetThatCannotBeReachedClosesTheClientsConnectionAndSaysWhy() throws Exception {
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    HttpUrl target = HttpUrl.get("http://127.0.0.1:" + port + "/api");

    try (CountingRelay relay = CountingRelay.start(List.of(target), System.nanoTime())) {
      assertThatThrownBy(() -> jdk.send(HttpRequest.newBuilder(relay.through(target).uri()).build(),
          BodyHandlers.discarding())).isInstanceOf(IOException.class);

      assertThat(relay.unreachable(target)).isInstanceOf(ConnectException.class);
      assertThat(relay.sent()).as("nothing reached a server").isZero();
    }
  }

  /**
   * An answer that says its connection closes after it (HTTP/1.0, {@code Connection: close})
   * closes the client's connection with it, as the target's own close would, even before the
   * target closes its end: a client must not find that connection in its pool again.
   */
  @Test
  void anAnswerThatClosesItsConnectionClosesTheClientsWithIt() throws Exception {
    try (ServerSocket target = new ServerSocket(0, 5, InetAddress.getLoopbackAddress())) {
      HttpUrl url = HttpUrl.get("http://127.0.0.1:" + target.getLocalPort() + "/");
      try (CountingRelay relay = CountingRelay.start(List.of(url), System.nanoTime());
          Socket client = new Socket(InetAddress.getLoopbackAddress(), relay.through(url).port())) {
        client.setSoTimeout(30_000); // a guard against a hang, not a measure
        client.getOutputStream().write("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        try (Socket accepted = target.accept()) { // reads the request, answers, and keeps its end open
          byte[] head = new byte["GET / HTTP/1.1\r\n".length()];
          new DataInputStream(accepted.getInputStream()).readFully(head);
          assertThat(new String(head, StandardCharsets.US_ASCII)).isEqualTo("GET / HTTP/1.1\r\n");
          accepted.getOutputStream().write(("HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok")
              .getBytes(StandardCharsets.US_ASCII));

          String answer = new String(client.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);

          assertThat(answer).startsWith("HTTP/1.1 200 OK").endsWith("\r\n\r\nok");
          assertThat(relay.sent()).isEqualTo(1);
        }
      }
    }
  }

  @Test
  void itRelaysPlainHttpOnly() {
    assertThatThrownBy(() -> CountingRelay.start(List.of(HttpUrl.get("https://example.com/")), 0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("plain http only");
  }
}
