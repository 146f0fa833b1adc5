package dev.polite.demo;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;

/**
 * A test of real demo servers on ephemeral loopback ports, on a clock that stands still until the
 * test moves it, with an HTTP client for them; every server started is closed after the test.
 */
abstract class ServedDemoTest {
  static final ObjectMapper JSON = new ObjectMapper();
  final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00.250Z"));
  private final List<DemoServer> servers = new ArrayList<>();

  @AfterEach
  void stop() {
    servers.forEach(DemoServer::close);
  }

  /** Starts {@code builder}'s server on the test's clock. */
  DemoServer start(DemoServerConfig.Builder builder) {
    DemoServer server = builder.clock(clock).start();
    servers.add(server);
    return server;
  }

  /** GETs {@code path} from {@code server}, with {@code headers} as name, value pairs. */
  HttpResponse<String> get(DemoServer server, String path, String... headers) throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(server.url().resolve(path)).timeout(Duration.ofSeconds(10));
    if (headers.length > 0) {
      request.headers(headers);
    }
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }
}
