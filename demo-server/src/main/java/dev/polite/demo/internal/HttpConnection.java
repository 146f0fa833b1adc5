package dev.polite.demo.internal;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.socket.DuplexChannel;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.http.DefaultHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One HTTP/1.1 connection, after the decoder: turns each request into an {@link Exchange}, hands
 * it to the endpoint, and writes the answers in request order.
 *
 * <ul>
 *   <li><b>One request at a time.</b> A pipelined request waits until the one before it is
 *       answered; while an answer is pending on a timer or a worker, the connection stops reading,
 *       and its {@link ReadGate} holds what it has read undecoded. So a delayed answer never
 *       overtakes, and a peer cannot queue unbounded work.
 *   <li><b>A loop, not recursion.</b> Requests answered at once are answered one after another
 *       by one loop ({@link #drain}), which also pulls the next bytes from the gate: however many
 *       a peer pipelines, the stack stays as deep as one request (answered by recursion, each
 *       queued answer would add its frames, and the stack would grow as deep as the queue).
 *   <li><b>Bodies are not read.</b> No endpoint needs one. A request is handled once its body has
 *       arrived, or at the end of the read that brought its headers if it has not: then the
 *       answer closes the connection and the rest of the body is discarded, so a client
 *       dribbling a body cannot hold the connection.
 *   <li><b>Bad requests</b> (a malformed line or header, headers over the limit, an invalid or
 *       missing {@code Host}) are answered 400 and closed.
 *   <li><b>Closing</b> is graceful: after the last answer the server shuts its side down and
 *       discards what still arrives for at most {@link #LINGER_MILLIS}, so a client still sending
 *       reads the answer instead of a reset.
 *   <li><b>Flushes</b> are batched: answers written while a read (or a loop) is under way go out
 *       in one flush at its end.
 * </ul>
 *
 * <p>Confined to the connection's I/O thread; {@link #answer} hops there from other threads.
 *
 * <p>Usage: {@code pipeline.addLast(timeouts, gate, new HttpServerCodec(...), new HttpConnection(endpoint, timeouts, gate, tasks))}
 */
final class HttpConnection extends ChannelInboundHandlerAdapter implements Exchange.Line {
  private static final Logger log = LoggerFactory.getLogger(HttpConnection.class);
  static final long LINGER_MILLIS = 1_000;
  private static final byte[] BAD_REQUEST_BODY = "bad request\n".getBytes(StandardCharsets.US_ASCII);
  /** What a 400 answers when the request could not be read: its method and path are unknown. */
  private static final HttpRequest BAD_REQUEST_LINE = new DefaultHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET,
      "/bad-request");

  private final Endpoint endpoint;
  private final ConnectionTimeouts timeouts;
  private final ReadGate gate;
  private final Executor tasks;
  private final ArrayDeque<Exchange> waiting = new ArrayDeque<>(2);
  private @Nullable ChannelHandlerContext ctx;
  private @Nullable HttpRequest arriving; // headers in, body still arriving
  private @Nullable Exchange current; // handed to the endpoint, not yet answered
  private @Nullable String peerKey;
  private boolean unflushed;
  private boolean closing;
  private boolean draining;

  HttpConnection(Endpoint endpoint, ConnectionTimeouts timeouts, ReadGate gate, Executor tasks) {
    this.endpoint = endpoint;
    this.timeouts = timeouts;
    this.gate = gate;
    this.tasks = tasks;
    gate.onInput(this::drain);
  }

  @Override
  public void handlerAdded(ChannelHandlerContext ctx) {
    this.ctx = ctx;
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    try {
      if (closing) {
        return;
      }
      if (msg instanceof HttpRequest request) {
        if (!valid(request)) {
          badRequest(request.decoderResult());
          return;
        }
        timeouts.requestArrived();
        arriving = request;
      }
      if (msg instanceof HttpContent content) {
        if (content.decoderResult().isFailure()) {
          badRequest(content.decoderResult());
          return;
        }
        if (content instanceof LastHttpContent && arriving != null) {
          HttpRequest request = arriving;
          arriving = null;
          start(new Exchange(this, request, HttpUtil.isKeepAlive(request)));
        }
      }
    } finally {
      ReferenceCountUtil.release(msg);
    }
  }

  @Override
  public void channelReadComplete(ChannelHandlerContext ctx) {
    if (arriving != null && !closing && !gate.holding()) {
      answerBeforeItsBody();
      drain();
    }
    flush();
  }

  /** A request whose body is still on the way: answered now, and closed rather than read the rest. */
  private void answerBeforeItsBody() {
    HttpRequest request = arriving;
    arriving = null;
    waiting.add(new Exchange(this, request, false));
  }

  @Override
  public void channelWritabilityChanged(ChannelHandlerContext ctx) {
    // a peer that sends and does not read: take nothing more until it has taken what was written
    drain();
    ctx.fireChannelWritabilityChanged();
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    Exchange pending = current;
    current = null;
    waiting.clear();
    if (pending != null) {
      pending.done();
    }
    ctx.fireChannelInactive();
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    // resets and broken pipes are the peer's business; anything else is worth a line
    log.debug("connection {} failed", ctx.channel().remoteAddress(), cause);
    ctx.close();
  }

  @Override
  public InetSocketAddress peer() {
    return (InetSocketAddress) context().channel().remoteAddress();
  }

  @Override
  public String peerKey(Function<InetSocketAddress, String> keyOf) {
    if (peerKey == null) {
      peerKey = keyOf.apply(peer());
    }
    return peerKey;
  }

  @Override
  public void later(long delay, TimeUnit unit, Runnable task) {
    context().executor().schedule(task, delay, unit);
  }

  @Override
  public void dispatch(Runnable task) {
    try {
      tasks.execute(task);
    } catch (RejectedExecutionException stopping) {
      context().close();
    }
  }

  /** Writes {@code exchange}'s answer (from any thread), then starts the next request. */
  @Override
  public void answer(Exchange exchange, FullHttpResponse response) {
    ChannelHandlerContext ctx = context();
    if (!ctx.executor().inEventLoop()) {
      ctx.executor().execute(() -> answer(exchange, response));
      return;
    }
    if (exchange != current) { // the connection went while it was being answered
      response.release();
      exchange.done();
      return;
    }
    current = null;
    exchange.done();
    timeouts.answered();
    write(response, !exchange.keepAlive());
    drain();
  }

  /** Closes the connection with no answer to {@code exchange} (from any thread): nothing more is read or written. */
  @Override
  public void drop(Exchange exchange) {
    ChannelHandlerContext ctx = context();
    if (!ctx.executor().inEventLoop()) {
      ctx.executor().execute(() -> drop(exchange));
      return;
    }
    if (exchange == current) {
      current = null;
    }
    exchange.done();
    closing = true;
    gate.drop();
    waiting.clear();
    unflushed = false;
    ctx.close();
  }

  private void start(Exchange exchange) {
    waiting.add(exchange);
    drain();
  }

  /**
   * Answers what waits and pulls more from the gate, one request at a time, until a request is
   * answered later (a timer, a worker), the peer stops reading its answers, or nothing is left;
   * then reads from the socket again only if it can take more. An answer given at once inside the
   * loop comes back here and returns at once: the loop goes on, the stack does not grow.
   */
  private void drain() {
    if (draining) {
      return;
    }
    draining = true;
    try {
      while (!closing && current == null) {
        Exchange next = waiting.poll();
        if (next != null) {
          run(next);
        } else if (!context().channel().isWritable()) {
          break; // the peer is not reading its answers: take nothing more until it has
        } else if (!gate.feed()) {
          if (arriving == null || gate.reading() || gate.holding()) {
            break; // all taken, or the rest waits for its turn (a read's end sees to a body still on its way)
          }
          answerBeforeItsBody(); // the gate's last bytes ended inside a body
        }
      }
      if (closing) {
        waiting.clear();
      }
    } finally {
      draining = false;
    }
    updateReading();
    if (!gate.reading()) { // a read's answers go in one flush at its end
      flush();
    }
  }

  private void run(Exchange exchange) {
    current = exchange;
    try {
      endpoint.handle(exchange);
    } catch (RuntimeException e) {
      log.warn("{} failed", exchange, e);
      if (!exchange.sent()) {
        exchange.send(500, "text/plain; charset=utf-8", "internal error\n");
      }
    }
  }

  private void write(FullHttpResponse response, boolean close) {
    ChannelHandlerContext ctx = context();
    if (!close) {
      ctx.write(response);
      unflushed = true;
      return;
    }
    closing = true;
    gate.drop();
    unflushed = false;
    ctx.writeAndFlush(response).addListener((ChannelFutureListener) this::closeGracefully);
  }

  private void flush() {
    if (unflushed) {
      unflushed = false;
      context().flush();
    }
  }

  /** Shuts the output, so the peer sees the answer then the end; closes once it is done sending. */
  private void closeGracefully(ChannelFuture written) {
    if (!written.isSuccess() || !(written.channel() instanceof DuplexChannel duplex)) {
      written.channel().close();
      return;
    }
    duplex.shutdownOutput().addListener(shut -> {
      ChannelHandlerContext ctx = context();
      ctx.channel().config().setAutoRead(true); // drain, so the peer's last bytes cause no reset
      ctx.executor().schedule(() -> ctx.close(), LINGER_MILLIS, TimeUnit.MILLISECONDS);
    });
  }

  private void badRequest(DecoderResult result) {
    arriving = null;
    log.debug("bad request: {}", result);
    Exchange exchange = new Exchange(this, BAD_REQUEST_LINE, false);
    waiting.clear();
    if (current != null) { // the request under way is given up: the 400 goes now, then the close
      current.done();
    }
    current = exchange;
    exchange.send(400, "text/plain; charset=utf-8", Unpooled.wrappedBuffer(BAD_REQUEST_BODY));
  }

  private void updateReading() {
    ChannelHandlerContext ctx = context();
    boolean read = closing || (current == null && ctx.channel().isWritable() && !gate.holding());
    if (ctx.channel().config().isAutoRead() != read) {
      ctx.channel().config().setAutoRead(read);
    }
  }

  /** HTTP/1.1 needs exactly one Host, and no endpoint takes a Host that is not a host[:port]. */
  private static boolean valid(HttpRequest request) {
    if (request.decoderResult().isFailure()) {
      return false;
    }
    Iterator<String> hosts = request.headers().valueStringIterator(HttpHeaderNames.HOST);
    if (!hosts.hasNext()) {
      return request.protocolVersion() != HttpVersion.HTTP_1_1;
    }
    String host = hosts.next();
    return !hosts.hasNext() && HostHeader.isValid(host); // one Host, not two
  }

  private ChannelHandlerContext context() {
    ChannelHandlerContext context = ctx;
    if (context == null) {
      throw new IllegalStateException("not in a pipeline");
    }
    return context;
  }
}
