package dev.polite.examples;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * A hand-written HTTP/1 server for tests that need a server to misbehave in a way no mock offers
 * (answer in HTTP/1.0 and close, close a kept-alive connection while it is idle): an ephemeral
 * loopback port, a thread per connection as {@code python3 -m http.server} has, and
 * {@link #serve} for what each connection gets. {@link #close()} closes every connection still
 * open too, so no thread stays blocked reading one. Public, since each command's tests live in
 * that command's package.
 *
 * <p>Usage: {@code class Mine extends ThreadPerConnectionServer { protected void serve(Socket c) {...} }; new Mine().start();}
 */
public abstract class ThreadPerConnectionServer implements AutoCloseable {
  private final ServerSocket socket;
  private final ExecutorService threads;
  private final Set<Socket> open = ConcurrentHashMap.newKeySet();

  /** @param name the connection threads' name */
  protected ThreadPerConnectionServer(String name) throws IOException {
    this.socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    this.threads = Executors.newCachedThreadPool(runnable -> {
      Thread thread = new Thread(runnable, name);
      thread.setDaemon(true);
      return thread;
    });
  }

  /** Starts accepting connections; call once the subclass is built. */
  protected final void start() {
    threads.execute(this::accept);
  }

  /** {@code path} on this server, as an {@code http://127.0.0.1:PORT} URL. */
  public String url(String path) {
    return "http://127.0.0.1:" + socket.getLocalPort() + path;
  }

  /**
   * Serves one connection on its own thread; the connection is closed when this returns or
   * throws (an {@link IOException}: the client or {@link #close()} went away).
   */
  protected abstract void serve(Socket connection) throws IOException;

  /** Reads up to the blank line that ends a request's head; false at end of stream first. */
  public static boolean readHead(InputStream in) throws IOException {
    int matched = 0; // of "\r\n\r\n"
    int b;
    while ((b = in.read()) != -1) {
      matched = (b == '\r' && matched % 2 == 0) || (b == '\n' && matched % 2 == 1) ? matched + 1
          : (b == '\r' ? 1 : 0);
      if (matched == 4) {
        return true;
      }
    }
    return false;
  }

  private void accept() {
    while (!socket.isClosed()) {
      try {
        Socket connection = socket.accept();
        open.add(connection);
        threads.execute(() -> {
          try (connection) {
            serve(connection);
          } catch (IOException e) {
            // the client went away, or the server closed
          } finally {
            open.remove(connection);
          }
        });
      } catch (IOException e) {
        return; // closed
      }
    }
  }

  @Override
  public void close() throws IOException {
    socket.close();
    for (Socket connection : open) {
      connection.close(); // a thread blocked reading it ends; an interrupt would not end it
    }
    threads.shutdownNow();
    try {
      threads.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
