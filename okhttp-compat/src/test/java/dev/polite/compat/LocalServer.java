package dev.polite.compat;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;

/**
 * The JDK's HTTP server on an ephemeral loopback port: no MockWebServer, whose API differs
 * between OkHttp 4 and 5. Each request is answered by a function and recorded.
 */
final class LocalServer implements AutoCloseable {
  /** An answer: status, headers (one value each), body. */
  record Reply(int code, Map<String, String> headers, String body) {
    static Reply ok() {
      return new Reply(200, Map.of(), "ok");
    }
  }

  private final HttpServer server;
  private final ExecutorService executor = Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "local-server");
    t.setDaemon(true);
    return t;
  });
  private final List<String> paths = new ArrayList<>();

  LocalServer(Function<String, Reply> answer) throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setExecutor(executor);
    server.createContext("/", exchange -> handle(exchange, answer));
    server.start();
  }

  private void handle(HttpExchange exchange, Function<String, Reply> answer) throws IOException {
    try (exchange) {
      try (InputStream in = exchange.getRequestBody()) {
        in.readAllBytes();
      }
      String path = exchange.getRequestURI().getPath();
      synchronized (paths) {
        paths.add(path);
      }
      Reply reply = answer.apply(path);
      reply.headers().forEach((k, v) -> exchange.getResponseHeaders().add(k, v));
      byte[] body = reply.body().getBytes(StandardCharsets.UTF_8);
      exchange.sendResponseHeaders(reply.code(), body.length == 0 ? -1 : body.length);
      if (body.length > 0) {
        try (OutputStream out = exchange.getResponseBody()) {
          out.write(body);
        }
      }
    }
  }

  String url(String path) {
    return "http://" + server.getAddress().getHostString() + ":" + server.getAddress().getPort() + path;
  }

  /** The paths requested, in order of arrival. */
  List<String> paths() {
    synchronized (paths) {
      return List.copyOf(paths);
    }
  }

  int requestCount() {
    return paths().size();
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }
}
