package dev.polite.vendors;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The JDK's HTTP server on an ephemeral loopback port, answering each request with a
 * {@link Api}: the vendors' stand-ins below are plain functions of the request and their own
 * state, so that what they answer is written apart from any client. The JDK server adds the
 * {@code Date} header itself, which both SDKs read (github-api measures the reset against it).
 */
public final class LoopbackServer implements AutoCloseable {
  /** What a stand-in answers. */
  public interface Api {
    Reply answer(Exchange request) throws Exception;
  }

  /** A request as a stand-in sees it. */
  public record Exchange(String method, String path, String query, String body,
      Map<String, String> headers) {
    public String header(String name) {
      return headers.get(name.toLowerCase(java.util.Locale.ROOT));
    }
  }

  /** An answer: status, headers in order (one value each), JSON body. */
  public record Reply(int code, Map<String, String> headers, String body) {
    public static Reply json(int code, Map<String, String> headers, String body) {
      Map<String, String> all = new LinkedHashMap<>(headers);
      all.put("Content-Type", "application/json; charset=utf-8");
      return new Reply(code, all, body);
    }
  }

  private final HttpServer server;
  private final ExecutorService executor = Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "loopback-server");
    t.setDaemon(true);
    return t;
  });
  private final AtomicInteger requests = new AtomicInteger();

  public LoopbackServer(Api api) throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setExecutor(executor);
    server.createContext("/", exchange -> handle(exchange, api));
    server.start();
  }

  private void handle(HttpExchange exchange, Api api) throws IOException {
    try (exchange) {
      String body;
      try (InputStream in = exchange.getRequestBody()) {
        body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      }
      requests.incrementAndGet();
      Map<String, String> headers = new LinkedHashMap<>();
      exchange.getRequestHeaders().forEach((k, v) ->
          headers.put(k.toLowerCase(java.util.Locale.ROOT), String.join(", ", v)));
      Reply reply;
      try {
        reply = api.answer(new Exchange(exchange.getRequestMethod(),
            exchange.getRequestURI().getPath(), exchange.getRequestURI().getRawQuery(), body,
            headers));
      } catch (Exception e) {
        reply = Reply.json(500, Map.of(), "{\"message\":\"stand-in failed: " + e + "\"}");
      }
      reply.headers().forEach((k, v) -> exchange.getResponseHeaders().add(k, v));
      byte[] bytes = reply.body().getBytes(StandardCharsets.UTF_8);
      exchange.sendResponseHeaders(reply.code(), bytes.length == 0 ? -1 : bytes.length);
      if (bytes.length > 0) {
        try (OutputStream out = exchange.getResponseBody()) {
          out.write(bytes);
        }
      }
    }
  }

  /** The base URL, without a trailing slash: {@code http://127.0.0.1:PORT}. */
  public String url() {
    return "http://" + server.getAddress().getHostString() + ":" + server.getAddress().getPort();
  }

  /** Every request that arrived, answered or not yet. */
  public int requests() {
    return requests.get();
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }
}
