package dev.polite.examples.clients;

import dev.polite.HeaderLines;
import dev.polite.ResponseView;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Map.Entry;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import okhttp3.HttpUrl;
import org.jspecify.annotations.Nullable;

/**
 * Counts what a client without interceptors (the JDK's {@code HttpClient}) puts on the wire: a
 * relay on loopback between the client and its targets, one port per target origin. The client
 * calls the relay's URL ({@link #through}); the relay opens a connection to the target for each
 * of the client's, forwards each HTTP/1.1 request and each answer as it came (Netty's codecs read
 * and write them; only {@code Host} is set back to the target's), and closes the client's
 * connection when the target closes its own. So the client's connections open, pool, go stale
 * and close as the target's do, and every request head the client writes, its own silent
 * re-sends included (a GET the JDK client sends again by itself on a new connection after a
 * pooled one closed under it), is one more head here.
 *
 * <ul>
 *   <li>{@link #sent()}: request heads forwarded to the target, answered or not. A head that
 *       comes on a connection the target has already closed is neither forwarded nor counted: the
 *       target never read it, and the client, seeing its connection close, sends it again.
 *   <li>{@link #rejected()}: rate-limit answers ({@link RateLimitRejection}) that came back.
 *   <li>{@link #attempts()}: each forwarded head, when it left and what answered it (status 0
 *       when its connection ended first), for the reports.
 *   <li>Per call: a request that names a call in the header {@link #CALL_HEADER} (a name
 *       {@link #follow} gave out) counts as one more attempt of that call's {@link CallAttempts},
 *       and its refusal as one of its refusals, the client's silent re-sends included; the relay
 *       takes the header off before it forwards the request, so the target sees what the client
 *       would have sent it.
 * </ul>
 *
 * <p>Plain HTTP only: the relay reads what it forwards, which TLS would hide. It adds one event
 * loop thread, and on loopback a hop of tens of microseconds.
 *
 * <p>A target that cannot be reached: the relay has already accepted the client's connection,
 * so it closes it, and keeps the reason ({@link #unreachable}) for the caller to report as the
 * {@code ConnectException} it is. Thread-safe.
 *
 * <p>Usage: {@code try (CountingRelay relay = CountingRelay.start(urls, System.nanoTime())) { send(relay.through(url)); relay.sent(); }}
 */
public final class CountingRelay implements WireCount, AutoCloseable {
  /** The request header naming the call a request belongs to ({@link #follow}); never forwarded. */
  public static final String CALL_HEADER = "Polite-Relay-Call";

  private static final int MAX_LINE = 8_192;
  private static final int MAX_HEADERS = 64 * 1_024;
  private static final int CONNECT_TIMEOUT_MILLIS = 10_000;

  private final EventLoopGroup loop;
  private final Map<Origin, Integer> ports = new LinkedHashMap<>();
  private final Set<Channel> channels = ConcurrentHashMap.newKeySet();
  private final long startNanos;
  private final AtomicLong sent = new AtomicLong();
  private final AtomicLong rejected = new AtomicLong();
  private final List<Forwarded> forwarded = new ArrayList<>();
  private final Map<Origin, IOException> unreachable = new ConcurrentHashMap<>();
  private final Map<String, CallAttempts> calls = new ConcurrentHashMap<>();
  private final AtomicLong callNames = new AtomicLong();

  private CountingRelay(EventLoopGroup loop, long startNanos) {
    this.loop = loop;
    this.startNanos = startNanos;
  }

  /**
   * Starts relaying to each distinct origin of {@code targets}, each on a free loopback port.
   *
   * @param startNanos the run's start on {@link System#nanoTime()}: attempt times count from it
   * @throws IllegalArgumentException for a target that is not plain {@code http}
   * @throws IOException when a port cannot be bound
   */
  public static CountingRelay start(Collection<HttpUrl> targets, long startNanos) throws IOException {
    for (HttpUrl target : targets) {
      if (!"http".equals(target.scheme())) {
        throw new IllegalArgumentException("the relay reads what it forwards, so plain http only: " + target);
      }
    }
    CountingRelay relay = new CountingRelay(new MultiThreadIoEventLoopGroup(1,
        new DefaultThreadFactory("polite-relay", true), NioIoHandler.newFactory()), startNanos);
    try {
      for (HttpUrl target : targets) {
        Origin origin = Origin.of(target);
        if (!relay.ports.containsKey(origin)) {
          relay.ports.put(origin, relay.listen(origin));
        }
      }
      return relay;
    } catch (IOException | RuntimeException e) {
      relay.close();
      throw e;
    }
  }

  /** {@code url} (path and query kept) on the relay's port for its origin. */
  public HttpUrl through(HttpUrl url) {
    Integer port = ports.get(Origin.of(url));
    if (port == null) {
      throw new IllegalArgumentException("not a target of this relay: " + url);
    }
    return url.newBuilder().host(InetAddress.getLoopbackAddress().getHostAddress()).port(port).build();
  }

  /**
   * Counts the attempts and refusals of requests that carry the returned name in
   * {@link #CALL_HEADER} into {@code attempts}, until {@link #forget} is called with it.
   */
  public String follow(CallAttempts attempts) {
    String call = Long.toString(callNames.incrementAndGet());
    calls.put(call, attempts);
    return call;
  }

  /** Stops following the call named {@code call}: its requests are counted in the relay's totals only. */
  public void forget(String call) {
    calls.remove(call);
  }

  /** Request heads forwarded to the targets so far. */
  @Override
  public long sent() {
    return sent.get();
  }

  /** Rate-limit refusals that came back so far. */
  @Override
  public long rejected() {
    return rejected.get();
  }

  /** Every forwarded head, in the order sent, with the status that answered it (0 for none yet). */
  @Override
  public List<SentAttempt> attempts() {
    List<SentAttempt> attempts = new ArrayList<>();
    synchronized (forwarded) {
      for (Forwarded head : forwarded) {
        attempts.add(new SentAttempt(head.sentNanos, head.status, head.rejected));
      }
    }
    attempts.sort(Comparator.comparingLong(SentAttempt::sentNanos));
    return attempts;
  }

  /** Why the relay could not connect to {@code url}'s origin, the last time it tried; null if it could. */
  public @Nullable IOException unreachable(HttpUrl url) {
    return unreachable.get(Origin.of(url));
  }

  /** Closes every connection and port, and ends the relay's thread. */
  @Override
  public void close() {
    for (Channel channel : channels) {
      channel.close();
    }
    loop.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
  }

  private int listen(Origin origin) throws IOException {
    ServerBootstrap bootstrap = new ServerBootstrap().group(loop).channel(NioServerSocketChannel.class)
        .option(ChannelOption.SO_BACKLOG, 1_024)
        .childOption(ChannelOption.AUTO_READ, false) // until its connection to the target is up
        .childOption(ChannelOption.TCP_NODELAY, true)
        .childHandler(new ChannelInitializer<SocketChannel>() {
          @Override
          protected void initChannel(SocketChannel client) {
            client.pipeline().addLast(new HttpServerCodec(decoding()), new ClientSide(origin));
          }
        });
    ChannelFuture bound = bootstrap.bind(InetAddress.getLoopbackAddress(), 0).awaitUninterruptibly();
    if (!bound.isSuccess()) {
      throw new IOException("the relay cannot bind a loopback port", bound.cause());
    }
    track(bound.channel());
    return ((InetSocketAddress) bound.channel().localAddress()).getPort();
  }

  private void track(Channel channel) {
    channels.add(channel);
    channel.closeFuture().addListener(closed -> channels.remove(channel));
  }

  private static HttpDecoderConfig decoding() {
    return new HttpDecoderConfig().setMaxInitialLineLength(MAX_LINE).setMaxHeaderSize(MAX_HEADERS);
  }

  /**
   * One head forwarded, the call it belongs to if it named one, and what answered it; its answer
   * is written on the relay's thread.
   */
  private static final class Forwarded {
    final long sentNanos;
    final @Nullable CallAttempts call;
    volatile int status;
    volatile boolean rejected;

    Forwarded(long sentNanos, @Nullable CallAttempts call) {
      this.sentNanos = sentNanos;
      this.call = call;
    }
  }

  /**
   * One of the client's connections and the relay's own to the target: the heads forwarded on
   * it and not yet answered, in order (HTTP/1.1 answers in the order asked). Both sides run on the
   * connection's one event loop thread.
   */
  private static final class Link {
    final Channel client;
    @Nullable Channel target;
    final Queue<Forwarded> unanswered = new ArrayDeque<>();
    @Nullable ChannelFuture lastToClient;
    /** Whether the answer under way says the target closes the connection after it. */
    boolean closing;

    Link(Channel client) {
      this.client = client;
    }

    /** Closes the client's connection once what was written to it has gone. */
    void closeClient() {
      client.flush();
      ChannelFuture last = lastToClient;
      if (last == null) {
        client.close();
      } else {
        last.addListener(written -> client.close());
      }
    }
  }

  /** The client's side of a link: connects to the target, then forwards the client's requests. */
  private final class ClientSide extends ChannelInboundHandlerAdapter {
    private final Origin origin;
    private @Nullable Link link;

    ClientSide(Origin origin) {
      this.origin = origin;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
      Channel client = ctx.channel();
      track(client);
      Link opened = new Link(client);
      link = opened;
      ChannelFuture connected = new Bootstrap().group(client.eventLoop()).channel(NioSocketChannel.class)
          .option(ChannelOption.TCP_NODELAY, true)
          .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, CONNECT_TIMEOUT_MILLIS)
          .handler(new ChannelInitializer<SocketChannel>() {
            @Override
            protected void initChannel(SocketChannel target) {
              target.pipeline().addLast(new HttpClientCodec(decoding(), false, false), new TargetSide(opened));
            }
          })
          .connect(origin.host(), origin.port());
      opened.target = connected.channel();
      track(connected.channel());
      connected.addListener(done -> {
        if (done.isSuccess()) {
          unreachable.remove(origin);
          client.config().setAutoRead(true);
        } else {
          Throwable cause = done.cause();
          unreachable.put(origin, cause instanceof IOException io ? io : new IOException(cause));
          client.close(); // the client sees its connection end, and asks unreachable() why
        }
      });
      ctx.fireChannelActive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      Link open = link;
      Channel target = open == null ? null : open.target;
      if (target == null || !target.isActive()) {
        ReferenceCountUtil.release(msg); // the target closed this connection: it reads no more
        ctx.close();
        return;
      }
      if (msg instanceof HttpRequest request) {
        request.headers().set(HttpHeaderNames.HOST, origin.hostHeader());
        String name = request.headers().get(CALL_HEADER);
        request.headers().remove(CALL_HEADER);
        CallAttempts call = name == null ? null : calls.get(name);
        if (call != null) {
          call.attempted();
        }
        Forwarded head = new Forwarded(System.nanoTime() - startNanos, call);
        open.unanswered.add(head);
        synchronized (forwarded) {
          forwarded.add(head);
        }
        sent.incrementAndGet();
      }
      if (msg instanceof LastHttpContent) {
        target.writeAndFlush(msg);
      } else {
        target.write(msg);
      }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
      Link open = link;
      if (open != null && open.target != null) {
        open.target.close();
      }
      ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      ctx.close();
    }
  }

  /** The target's side of a link: counts each answer and forwards it to the client. */
  private final class TargetSide extends ChannelInboundHandlerAdapter {
    private final Link link;

    TargetSide(Link link) {
      this.link = link;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      if (msg instanceof HttpResponse response && response.status().code() >= 200) {
        Forwarded head = link.unanswered.poll();
        if (head != null) {
          int status = response.status().code();
          boolean refused = RateLimitRejection.is(ResponseView.of(status, lines(response.headers())));
          head.status = status;
          head.rejected = refused;
          if (refused) {
            rejected.incrementAndGet();
            if (head.call != null) {
              head.call.rejected();
            }
          }
        }
      }
      if (msg instanceof HttpResponse response && response.status().code() >= 200) {
        link.closing = !HttpUtil.isKeepAlive(response);
      }
      if (msg instanceof LastHttpContent) {
        link.lastToClient = link.client.writeAndFlush(msg);
        if (link.closing) {
          // The target closes after this answer (HTTP/1.0, Connection: close): so does the relay,
          // with the answer, as the target's own close would reach the client, rather than a
          // moment later, when the client may have pooled the connection again.
          link.closeClient();
        }
      } else {
        link.lastToClient = link.client.write(msg);
      }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
      link.closeClient();
      ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      ctx.close();
    }
  }

  private static HeaderLines lines(HttpHeaders headers) {
    List<String> namesAndValues = new ArrayList<>(headers.size() * 2);
    for (Entry<String, String> header : headers) {
      namesAndValues.add(header.getKey());
      namesAndValues.add(header.getValue());
    }
    return HeaderLines.of(namesAndValues.toArray(new String[0]));
  }
}
