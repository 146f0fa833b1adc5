package dev.polite.demo.internal;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.xnio.ChannelListener;
import org.xnio.ChannelListeners;
import org.xnio.IoUtils;
import org.xnio.StreamConnection;
import org.xnio.channels.AcceptingChannel;

/**
 * The accept listener: takes each new connection and hands it to HTTP, unless its address already
 * holds {@code perClient} connections, in which case it is closed at once. So one client flooding
 * the server with connections (half-sent requests, say) cannot take every slot of the server's
 * connection cap, and a health check from elsewhere still gets in.
 *
 * <p>A client is an address, an IPv6 one by its /64 as the limiter keys it. Trusted proxies are
 * exempt: every client behind them shares their address. The count per address lives in a map
 * whose entries go when their last connection closes, so it holds at most one entry per open
 * connection. Refusals are logged once a second at most, so a flood cannot become a log flood.
 *
 * <p>Usage: {@code worker.createStreamConnectionServer(address, new ConnectionGate(openListener, 1000, proxies), options)}
 */
public final class ConnectionGate implements ChannelListener<AcceptingChannel<StreamConnection>> {
  private static final Logger log = LoggerFactory.getLogger(ConnectionGate.class);

  private final ChannelListener<? super StreamConnection> http;
  private final int perClient;
  private final TrustedProxies trusted;
  private final ConcurrentHashMap<String, Integer> open = new ConcurrentHashMap<>();
  private final AtomicLong refused = new AtomicLong();
  private final AtomicLong lastReportMillis = new AtomicLong();

  /**
   * @param http what serves an admitted connection (Undertow's HTTP open listener)
   * @param perClient the most open connections per address; 0 for no limit
   * @param trusted proxies exempt from the limit
   */
  public ConnectionGate(ChannelListener<? super StreamConnection> http, int perClient, TrustedProxies trusted) {
    this.http = http;
    this.perClient = perClient;
    this.trusted = trusted;
  }

  @Override
  public void handleEvent(AcceptingChannel<StreamConnection> channel) {
    StreamConnection connection;
    try {
      connection = channel.accept();
    } catch (IOException e) {
      // XNIO has already backed off for a failed accept (it returns null then); this is a closed channel
      log.debug("accept failed", e);
      return;
    }
    if (connection == null) {
      return;
    }
    String client = clientOf(connection);
    if (client != null && !enter(client)) {
      // Closed on the I/O thread that owns it: NIO frees a registered socket only when that
      // thread's selector next runs, which, on an idle thread, could be never.
      connection.getIoThread().execute(() -> IoUtils.safeClose(connection));
      reportRefusal(client);
      return;
    }
    ChannelListeners.invokeChannelListener(connection, http);
    if (client != null) {
      // Undertow sets its own close listener when it takes the connection: wrap it, keep it first
      ChannelListener<? super StreamConnection> undertows = connection.getCloseListener();
      connection.setCloseListener(closed -> {
        leave(client);
        ChannelListeners.invokeChannelListener(closed, undertows);
      });
      if (!connection.isOpen()) { // closed before the listener was set: Undertow refused it
        leave(client);
      }
    }
  }

  /** How many connections {@code client} ({@code ip:ADDRESS}) holds now; for tests. */
  int openFrom(String client) {
    return open.getOrDefault(client, 0);
  }

  private @Nullable String clientOf(StreamConnection connection) {
    if (perClient <= 0) {
      return null;
    }
    InetSocketAddress peer = connection.getPeerAddress(InetSocketAddress.class);
    @Nullable InetAddress address = peer == null ? null : peer.getAddress();
    if (address == null || trusted.contains(address)) {
      return null;
    }
    return IpAddress.key(address);
  }

  private boolean enter(String client) {
    boolean[] admitted = {false};
    open.compute(client, (key, count) -> {
      int now = count == null ? 0 : count;
      if (now >= perClient) {
        return count;
      }
      admitted[0] = true;
      return now + 1;
    });
    return admitted[0];
  }

  private void leave(String client) {
    open.computeIfPresent(client, (key, count) -> count <= 1 ? null : count - 1);
  }

  private void reportRefusal(String client) {
    long count = refused.incrementAndGet();
    long now = System.currentTimeMillis(); // only paces a log line; no decision reads it
    long last = lastReportMillis.get();
    if (now - last >= 1000 && lastReportMillis.compareAndSet(last, now)) {
      refused.addAndGet(-count);
      log.warn("refused {} connection(s) since the last report: {} already holds {} (--max-connections-per-client)",
          count, client, perClient);
    }
  }
}
