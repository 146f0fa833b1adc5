package dev.polite.demo.internal;

import dev.polite.demo.Algorithm;
import dev.polite.demo.DemoServerConfig;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollChannelOption;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.EventExecutor;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP listener: Netty's HTTP/1.1 codec on its event loops (epoll on Linux, NIO elsewhere),
 * with the few steps around it that protect the server set up in one place:
 *
 * <ul>
 *   <li>an accept loop of its own: the listening socket is served by one thread that does nothing
 *       else, and hands each connection to an I/O loop. Sharing a loop, the listener accepted a
 *       batch of 16 per pass and the loop then served what those had sent, so a connection that
 *       arrived behind 500 others was not even accepted until the 500 had been served;
 *   <li>on Linux, the kernel holds a new connection until its first bytes arrive, for at most
 *       {@value #DEFER_ACCEPT_SECONDS} s ({@code TCP_DEFER_ACCEPT}, as nginx's {@code deferred}):
 *       a connection that says nothing costs the server nothing until it speaks, so 500 silent
 *       ones do not stand between the listener and a monitor's {@code /health}, which arrives
 *       with its request. One that is still silent then is accepted, and its idle timeout runs;
 *   <li>{@link ConnectionGate}: at most {@code maxConnections} open (more wait in the listen
 *       backlog) and at most {@code maxConnectionsPerClient} per address (more are closed). The
 *       cap is lowered to leave room under the process's file limit, so that accepting never
 *       meets "too many open files";
 *   <li>{@link ConnectionTimeouts}: a request's line and headers must arrive within the parse
 *       timeout, a connection with no request under way is closed after the idle timeout, and one
 *       whose request is under way for longer than the server can hold one
 *       ({@link #answerTimeoutNanos}) is closed too;
 *   <li>{@link ReadGate}: bytes reach the decoder only as fast as the connection takes requests,
 *       and only in the connection's turn on its loop ({@link Turns}): the loop serves a few
 *       connections between looks at its sockets, so a newcomer is read within a pass, and a
 *       {@code /health} request is answered in the read that brings it, ahead of the queue;
 *   <li>the decoder's limits: a request line of at most {@value #MAX_LINE} bytes and headers of at
 *       most {@value #MAX_HEADERS} bytes, or 400;
 *   <li>{@link HttpConnection}: one request at a time per connection, answers in order;
 *   <li>{@link WarmUp}: the server's first requests are its own, sent before it returns, so no
 *       client's is the one that pays for what runs once per process.
 * </ul>
 *
 * <p>Why Netty's codec and not a general web server: a rejection should cost the server as little
 * as nginx's {@code limit_req} spends on one, so around the decision a request here is only the
 * codec, a handful of header reads ({@code Host} checked character by character,
 * {@link HostHeader}) and one write (a 429's body is prepared once). How close that comes to
 * nginx, and what the I/O thread count does to it, measured with the command:
 * demo-server/README.md, "Speed", and bench/README.md, "Demo server vs nginx".
 *
 * <p>Endpoints run on the I/O threads and must not block; work that may block (a Redis store, the
 * stats) goes to the task threads through {@link Exchange#dispatch}.
 *
 * <p>Usage: {@code HttpFront front = HttpFront.start(config, endpoint); int port = front.port(); front.close();}
 */
public final class HttpFront implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(HttpFront.class);
  /** Descriptors kept free for everything else: jars, logs, Redis connections, the selector. */
  static final long RESERVED_FILES = 512;
  static final int MAX_LINE = 8_192;
  static final int MAX_HEADERS = 16_384;
  /** The shortest the kernel offers: it counts the wait in SYN-ACK retransmissions, the first after 1 s. */
  static final int DEFER_ACCEPT_SECONDS = 1;

  private final EventLoopGroup accepting;
  private final EventLoopGroup loops;
  private final ExecutorService tasks;
  private final Channel listener;
  private final int port;
  private final int maxConnections;

  private HttpFront(EventLoopGroup accepting, EventLoopGroup loops, ExecutorService tasks, Channel listener,
      int maxConnections) {
    this.accepting = accepting;
    this.loops = loops;
    this.tasks = tasks;
    this.listener = listener;
    this.port = ((InetSocketAddress) listener.localAddress()).getPort();
    this.maxConnections = maxConnections;
  }

  /**
   * Binds {@code config}'s host and port and serves {@code endpoint} on it.
   *
   * @throws IOException when the address cannot be bound
   */
  public static HttpFront start(DemoServerConfig config, Endpoint endpoint) throws IOException {
    int ioThreads = ServerThreads.io(config);
    int maxConnections = fitToFileLimit(config.maxConnections(), maxFileDescriptors());
    if (maxConnections < config.maxConnections()) {
      log.warn("max-connections lowered from {} to {} to stay under the process's file limit ({})",
          config.maxConnections(), maxConnections, maxFileDescriptors());
    }
    boolean epoll = Epoll.isAvailable();
    IoHandlerFactory handlers = epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
    Class<? extends ServerChannel> channelType = epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
    EventLoopGroup accepting = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("polite-demo-accept", true),
        handlers);
    EventLoopGroup loops = new MultiThreadIoEventLoopGroup(ioThreads, new DefaultThreadFactory("polite-demo-io", true), handlers);
    ExecutorService tasks = Executors.newFixedThreadPool(ServerThreads.tasks(config),
        new DefaultThreadFactory("polite-demo-task", true));
    Map<EventExecutor, Turns> turns = Turns.forEach(loops);
    try {
      if (WarmUp.due()) {
        rehearse(config, accepting, loops, turns, channelType, tasks);
      }
      InetSocketAddress address = new InetSocketAddress(InetAddress.getByName(config.host()), config.port());
      Channel listener = bind(bootstrap(config, accepting, loops, turns, channelType, maxConnections,
          config.maxConnectionsPerClient(), endpoint, tasks), address);
      log.debug("listening on {} with {} I/O thread(s), {}", address, ioThreads, epoll ? "epoll" : "NIO");
      return new HttpFront(accepting, loops, tasks, listener, maxConnections);
    } catch (IOException | RuntimeException e) {
      tasks.shutdownNow();
      loops.shutdownGracefully(0, 0, TimeUnit.SECONDS);
      accepting.shutdownGracefully(0, 0, TimeUnit.SECONDS);
      throw e;
    }
  }

  /**
   * The process's first requests, on a listener of their own ({@link WarmUp}): on loopback, on the
   * same threads and with the same steps as the real one, over scratch limiter state, and closed
   * before the real port is bound, so no client can reach it.
   */
  private static void rehearse(DemoServerConfig config, EventLoopGroup accepting, EventLoopGroup loops,
      Map<EventExecutor, Turns> turns, Class<? extends ServerChannel> channelType, ExecutorService tasks)
      throws IOException {
    try (WarmUp.Scratch scratch = WarmUp.scratch(config)) {
      // no cap per client: the rehearsal's one client opens connections faster than it closes them
      ServerBootstrap rehearsing = bootstrap(config, accepting, loops, turns, channelType, config.maxConnections(),
          Integer.MAX_VALUE, scratch.endpoint(), tasks);
      Channel rehearsal = bind(rehearsing, new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
      try {
        WarmUp.run((InetSocketAddress) rehearsal.localAddress());
      } finally {
        rehearsal.close().syncUninterruptibly();
      }
    }
  }

  private static ServerBootstrap bootstrap(DemoServerConfig config, EventLoopGroup accepting, EventLoopGroup loops,
      Map<EventExecutor, Turns> turns, Class<? extends ServerChannel> channelType, int maxConnections, int perClient,
      Endpoint endpoint, ExecutorService tasks) {
    long parseNanos = config.parseTimeout().toNanos();
    long idleNanos = config.idleTimeout().toNanos();
    long answerNanos = answerTimeoutNanos(config);
    HttpDecoderConfig decoding = new HttpDecoderConfig()
        .setMaxInitialLineLength(MAX_LINE)
        .setMaxHeaderSize(MAX_HEADERS)
        .setMaxChunkSize(8_192)
        .setValidateHeaders(true);
    ServerBootstrap bootstrap = new ServerBootstrap();
    if (channelType == EpollServerSocketChannel.class) {
      bootstrap.option(EpollChannelOption.TCP_DEFER_ACCEPT, DEFER_ACCEPT_SECONDS);
    }
    return bootstrap
        .group(accepting, loops)
        .channel(channelType)
        .option(ChannelOption.SO_BACKLOG, 1_000)
        .option(ChannelOption.SO_REUSEADDR, true)
        .handler(new ConnectionGate(maxConnections, perClient, new TrustedProxies(config.trustedProxies())))
        .childOption(ChannelOption.TCP_NODELAY, true)
        .childHandler(new ChannelInitializer<Channel>() {
          @Override
          protected void initChannel(Channel channel) {
            ConnectionTimeouts timeouts = new ConnectionTimeouts(parseNanos, idleNanos, answerNanos);
            ReadGate gate = new ReadGate(turns.get(channel.eventLoop()));
            channel.pipeline().addLast(timeouts, gate, new HttpServerCodec(decoding),
                new HttpConnection(endpoint, timeouts, gate, tasks));
          }
        });
  }

  private static Channel bind(ServerBootstrap bootstrap, InetSocketAddress address) throws IOException {
    ChannelFuture bound = bootstrap.bind(address).awaitUninterruptibly();
    if (!bound.isSuccess()) {
      throw bindFailure(bound.cause());
    }
    return bound.channel();
  }

  /**
   * {@code cause} as the JDK says it: epoll reports a failed bind as a {@code NativeIoException}
   * ("bind(..) failed with error(-98): Address already in use"), NIO as a {@link BindException}.
   */
  static IOException bindFailure(Throwable cause) {
    if (cause instanceof BindException bind) {
      return bind;
    }
    String message = String.valueOf(cause.getMessage());
    if (cause instanceof IOException && message.startsWith("bind(")) {
      BindException bind = new BindException(message.substring(message.lastIndexOf(": ") + 2));
      bind.initCause(cause);
      return bind;
    }
    return cause instanceof IOException io ? io : new IOException(cause);
  }

  /** The bound port. */
  public int port() {
    return port;
  }

  /** The connection cap in force, after fitting it to the file limit. */
  public int maxConnections() {
    return maxConnections;
  }

  /** Stops accepting, closes every connection and stops the threads. */
  @Override
  public void close() {
    listener.close().syncUninterruptibly();
    accepting.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
    loops.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
    tasks.shutdownNow();
  }

  /**
   * How long a request may be under way before its connection is given up: longer than any wait
   * the server imposes itself, {@code --latency} plus the leaky queue's longest
   * ({@code (burst - 1) × window / limit}, for the main budget and each route's), with the idle
   * timeout on top for everything else (a Redis decision takes at most a few of its timeouts, a
   * /stats answer milliseconds). Saturates rather than overflows.
   */
  static long answerTimeoutNanos(DemoServerConfig config) {
    long queue = 0;
    if (config.algorithm() == Algorithm.LEAKY_QUEUE) {
      List<Policy> policies = new ArrayList<>();
      policies.add(Policy.of(config));
      config.budgets().values().forEach(budget -> policies.add(Policy.of(budget)));
      for (Policy policy : policies) {
        queue = Math.max(queue, Nanos.saturatedMultiply(policy.burst() - 1, policy.intervalNanos()));
      }
    }
    return Nanos.saturatedAdd(Nanos.saturatedAdd(Nanos.of(config.latency()), queue), config.idleTimeout().toNanos());
  }

  /** {@code wanted}, lowered to leave {@link #RESERVED_FILES} of {@code fileLimit} free; at least 1. */
  static int fitToFileLimit(int wanted, long fileLimit) {
    if (fileLimit <= 0) { // unknown (not a Unix JVM)
      return wanted;
    }
    return (int) Math.max(1, Math.min(wanted, fileLimit - RESERVED_FILES));
  }

  private static long maxFileDescriptors() {
    OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
    if (os instanceof com.sun.management.UnixOperatingSystemMXBean unix) {
      return unix.getMaxFileDescriptorCount();
    }
    return -1;
  }
}
