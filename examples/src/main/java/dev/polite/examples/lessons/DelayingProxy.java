package dev.polite.examples.lessons;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.LockSupport;

/**
 * A TCP proxy on loopback that adds a round trip to every request: what it reads from the client
 * it forwards only {@code delay} after reading it; answers come back at once. A store in another
 * zone, or a busy one, seen from the limiter. Each connection gets two threads (one each way);
 * {@link #close()} closes every socket, which ends them.
 *
 * <p>The delay holds back everything read together, which is exact for a client that waits for
 * each answer before its next command (Jedis without pipelining), as the race's clients do.
 *
 * <p>Usage: {@code try (DelayingProxy proxy = DelayingProxy.start(redisPort, Duration.ofMillis(1))) { new Jedis("127.0.0.1", proxy.port()) ... }}
 */
final class DelayingProxy implements AutoCloseable {
  private final ServerSocket listener;
  private final int targetPort;
  private final long delayNanos;
  private final List<Socket> sockets = new CopyOnWriteArrayList<>();
  private final Thread acceptor;

  private DelayingProxy(ServerSocket listener, int targetPort, long delayNanos) {
    this.listener = listener;
    this.targetPort = targetPort;
    this.delayNanos = delayNanos;
    this.acceptor = new Thread(this::accept, "delaying-proxy-accept");
    acceptor.setDaemon(true);
  }

  /** Listens on a free loopback port, forwarding to {@code targetPort} with {@code delay} added. */
  static DelayingProxy start(int targetPort, Duration delay) throws IOException {
    DelayingProxy proxy = new DelayingProxy(new ServerSocket(0, 128, InetAddress.getLoopbackAddress()),
        targetPort, delay.toNanos());
    proxy.acceptor.start();
    return proxy;
  }

  int port() {
    return listener.getLocalPort();
  }

  private void accept() {
    while (!listener.isClosed()) {
      try {
        Socket client = listener.accept();
        Socket server = new Socket();
        sockets.add(client);
        sockets.add(server);
        server.setTcpNoDelay(true);
        client.setTcpNoDelay(true);
        server.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), targetPort), 1000);
        pump(client, server, delayNanos, "delaying-proxy-up");
        pump(server, client, 0, "delaying-proxy-down");
      } catch (IOException e) {
        if (listener.isClosed()) {
          return; // closed: the proxy is done
        }
        // One connection failed to open; the client sees its socket closed. Keep accepting.
      }
    }
  }

  private void pump(Socket from, Socket to, long delay, String name) {
    Thread thread = new Thread(() -> {
      byte[] buffer = new byte[16 * 1024];
      try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
        int read;
        while ((read = in.read(buffer)) >= 0) {
          if (delay > 0) {
            long due = System.nanoTime() + delay;
            for (long left = delay; left > 0; left = due - System.nanoTime()) {
              LockSupport.parkNanos(left);
            }
          }
          out.write(buffer, 0, read);
          out.flush();
        }
      } catch (IOException closed) {
        // Either side closed: the connection is over.
      } finally {
        closeQuietly(from);
        closeQuietly(to);
      }
    }, name);
    thread.setDaemon(true);
    thread.start();
  }

  private static void closeQuietly(Socket socket) {
    try {
      socket.close();
    } catch (IOException alreadyGone) {
      // nothing left to release
    }
  }

  /** Stops accepting and closes every connection, which ends its threads. */
  @Override
  public void close() throws IOException {
    listener.close();
    sockets.forEach(DelayingProxy::closeQuietly);
    try {
      acceptor.join(1000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
