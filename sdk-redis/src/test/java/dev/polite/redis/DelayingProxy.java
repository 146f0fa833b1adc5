package dev.polite.redis;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP proxy on an ephemeral loopback port that forwards to a local port, holding the chunks it
 * reads (either way) for a delay first: a Redis that answers, but slowly. It holds every chunk,
 * or one in {@code every} of each direction's (a Redis whose answers straddle a timeout). Both
 * may change while connections are open. Test-only; closing it closes every connection it holds.
 */
final class DelayingProxy implements AutoCloseable {
  private final int target;
  private final ServerSocket server;
  private final List<Socket> sockets = new CopyOnWriteArrayList<>();
  private volatile long delayNanos;
  private volatile int every = 1;

  DelayingProxy(int targetPort, Duration delay) throws IOException {
    this.target = targetPort;
    this.delayNanos = delay.toNanos();
    this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    Thread accepting = new Thread(this::accept, "proxy-accept-" + server.getLocalPort());
    accepting.setDaemon(true);
    accepting.start();
  }

  int port() {
    return server.getLocalPort();
  }

  /** The proxy as a Redis URI: a client of it reaches the target through it. */
  String uri() {
    return "redis://127.0.0.1:" + port();
  }

  /** The delay from now on, for chunks read from now on. */
  void delay(Duration delay) {
    this.delayNanos = delay.toNanos();
  }

  /** Holds one chunk in {@code every} of each direction from now on (1: every chunk). */
  void holdOneIn(int every) {
    this.every = every;
  }

  private void accept() {
    while (!server.isClosed()) {
      try {
        Socket client = server.accept();
        Socket redis = new Socket(InetAddress.getLoopbackAddress(), target);
        client.setTcpNoDelay(true);
        redis.setTcpNoDelay(true);
        sockets.add(client);
        sockets.add(redis);
        pump(client, redis, "up");
        pump(redis, client, "down");
      } catch (IOException closed) {
        return;
      }
    }
  }

  private void pump(Socket from, Socket to, String way) {
    Thread pump = new Thread(() -> {
      byte[] buffer = new byte[16 * 1024];
      try (from; to) {
        InputStream in = from.getInputStream();
        OutputStream out = to.getOutputStream();
        int n;
        long chunks = 0;
        while ((n = in.read(buffer)) > 0) {
          long delay = delayNanos;
          if (delay > 0 && chunks++ % every == 0) {
            Thread.sleep(delay / 1_000_000, (int) (delay % 1_000_000));
          }
          out.write(buffer, 0, n);
          out.flush();
        }
      } catch (IOException | InterruptedException gone) {
        // either side closed: closing both (try-with-resources) tells the other
      } finally {
        sockets.remove(from);
        sockets.remove(to);
      }
    }, "proxy-" + way + "-" + from.getPort());
    pump.setDaemon(true);
    pump.start();
  }

  @Override
  public void close() throws IOException {
    server.close();
    for (Socket socket : sockets) {
      socket.close();
    }
  }
}
