package dev.polite.demo.internal;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides which accepted connections the server keeps. It sits in the listening channel's
 * pipeline, ahead of the step that registers each new connection, and enforces two caps:
 *
 * <ul>
 *   <li><b>In all</b>: at {@code maxConnections} open, the listener stops accepting (its auto-read
 *       goes off), so new connections wait in the kernel's listen backlog; the moment one closes,
 *       accepting resumes. Nothing is refused, and a flood that leaves is followed at once.
 *   <li><b>Per client</b>: an address that already holds {@code perClient} is closed at once. So
 *       one client flooding the server with connections (half-sent requests, say) cannot take every
 *       slot of the cap, and a health check from elsewhere still gets in. A client is an address,
 *       an IPv6 one by its /64 as the limiter keys it; trusted proxies are exempt, since every
 *       client behind them shares their address.
 * </ul>
 *
 * <p>The count per address lives in a map whose entries go when their last connection closes, so
 * it holds at most one entry per open connection. Refusals are logged once a second at most, so a
 * flood cannot become a log flood.
 *
 * <p>Thread-safe: connections close on any I/O thread.
 *
 * <p>Usage: {@code serverBootstrap.handler(new ConnectionGate(10_000, 1_000, proxies))}
 */
@ChannelHandler.Sharable
final class ConnectionGate extends ChannelInboundHandlerAdapter {
  private static final Logger log = LoggerFactory.getLogger(ConnectionGate.class);

  private final int maxConnections;
  private final int perClient;
  private final TrustedProxies trusted;
  private final AtomicInteger openInAll = new AtomicInteger();
  private final ConcurrentHashMap<String, Integer> open = new ConcurrentHashMap<>();
  private final AtomicLong refused = new AtomicLong();
  private final AtomicLong lastReportMillis = new AtomicLong();

  /**
   * @param maxConnections the most open connections in all
   * @param perClient the most open connections per address; 0 for no limit
   * @param trusted proxies exempt from the per-client limit
   */
  ConnectionGate(int maxConnections, int perClient, TrustedProxies trusted) {
    this.maxConnections = maxConnections;
    this.perClient = perClient;
    this.trusted = trusted;
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    Channel child = (Channel) msg;
    Channel listener = ctx.channel();
    String client = clientOf(child.remoteAddress());
    if (client != null && !enter(client)) {
      child.unsafe().closeForcibly(); // not registered yet: nothing else holds it
      reportRefusal(client);
      return;
    }
    if (openInAll.incrementAndGet() >= maxConnections) {
      listener.config().setAutoRead(false);
    }
    child.closeFuture().addListener(closed -> {
      if (client != null) {
        leave(client);
      }
      if (openInAll.getAndDecrement() >= maxConnections) {
        listener.eventLoop().execute(() -> listener.config().setAutoRead(true));
      }
    });
    ctx.fireChannelRead(child);
  }

  private @Nullable String clientOf(@Nullable SocketAddress remote) {
    if (perClient <= 0 || !(remote instanceof InetSocketAddress peer)) {
      return null;
    }
    @Nullable InetAddress address = peer.getAddress();
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
