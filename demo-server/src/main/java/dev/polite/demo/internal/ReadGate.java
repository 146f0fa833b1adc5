package dev.polite.demo.internal;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.util.ArrayDeque;
import org.jspecify.annotations.Nullable;

/**
 * Lets a connection's bytes into the HTTP decoder no faster than {@link HttpConnection} takes
 * requests: what arrives is held here, and the connection pulls it through a slice of at most
 * {@value #SLICE} bytes at a time, only while it has no request under way and its peer reads its
 * answers.
 *
 * <p>Why: the decoder decodes every request in a buffer it is given, whatever the connection
 * wants. Stopping the socket's reads (auto-read off) stops the next read, not the one in hand, and
 * a read is up to 64 KB: about 1,900 pipelined {@code GET /health} requests, each decoded (some
 * 500 bytes of objects for 35 bytes of text) and queued behind one the server holds. Netty's codec
 * then gives up on the connection at 128 requests unanswered ({@code maxPipelineDepth}) and
 * closes it with the answers still queued: a client pipelining 100,000 requests got 62 answers and
 * a reset. Sliced, at most {@code SLICE / 18} requests (18 bytes is the shortest,
 * {@code GET / HTTP/1.0} and its blank line), 56, are decoded beyond the one under way, under the
 * codec's 128; the rest stays here as the bytes it came as.
 *
 * <p>Once the connection is closing, what is held and what still arrives is dropped unread.
 *
 * <p>Confined to the connection's I/O thread.
 *
 * <p>Usage: {@code pipeline.addLast(timeouts, gate, new HttpServerCodec(...), new HttpConnection(endpoint, timeouts, gate, tasks))}
 */
final class ReadGate extends ChannelInboundHandlerAdapter {
  static final int SLICE = 1_024;

  private final ArrayDeque<ByteBuf> held = new ArrayDeque<>();
  private @Nullable ChannelHandlerContext ctx;
  private Runnable onInput = () -> {};
  private boolean reading;
  private boolean dropping;

  /** Runs {@code onInput} whenever bytes arrive (the connection then pulls what it can take). */
  void onInput(Runnable onInput) {
    this.onInput = onInput;
  }

  @Override
  public void handlerAdded(ChannelHandlerContext ctx) {
    this.ctx = ctx;
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    if (!(msg instanceof ByteBuf bytes)) {
      ctx.fireChannelRead(msg);
      return;
    }
    if (dropping || !bytes.isReadable()) {
      bytes.release();
      return;
    }
    reading = true;
    held.add(bytes);
    onInput.run();
  }

  @Override
  public void channelReadComplete(ChannelHandlerContext ctx) {
    reading = false;
    ctx.fireChannelReadComplete();
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    drop();
    ctx.fireChannelInactive();
  }

  @Override
  public void handlerRemoved(ChannelHandlerContext ctx) {
    drop();
  }

  /**
   * Hands the decoder the next slice of what is held; false when nothing is. The decoder may
   * decode requests from it, which reach the connection before this returns.
   */
  boolean feed() {
    ByteBuf first = held.peek();
    if (first == null || dropping) {
      return false;
    }
    ByteBuf slice = first.readableBytes() <= SLICE ? held.poll() : first.readRetainedSlice(SLICE);
    context().fireChannelRead(slice);
    return true;
  }

  /** Whether bytes are held that the decoder has not seen. */
  boolean holding() {
    return !held.isEmpty();
  }

  /** Whether a read from the socket is under way (its end, channelReadComplete, is still to come). */
  boolean reading() {
    return reading;
  }

  /** The connection is closing: drops what is held, and everything that arrives from now on. */
  void drop() {
    dropping = true;
    for (ByteBuf bytes; (bytes = held.poll()) != null; ) {
      bytes.release();
    }
  }

  private ChannelHandlerContext context() {
    ChannelHandlerContext context = ctx;
    if (context == null) {
      throw new IllegalStateException("not in a pipeline");
    }
    return context;
  }
}
