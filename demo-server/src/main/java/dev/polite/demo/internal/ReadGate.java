package dev.polite.demo.internal;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Objects;
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
 * closes it with the answers still queued, so a client that pipelines more gets a reset
 * (demo-server/README.md, "Under abuse", gives the test's 100,000 requests). Sliced, at most
 * {@code SLICE / 18} requests (18 bytes is the shortest, {@code GET / HTTP/1.0} and its blank
 * line), 56, are decoded beyond the one under way, under the codec's 128; the rest stays here as
 * the bytes it came as.
 *
 * <p>And it decides when the connection gets to pull: bytes that arrive with nothing held wait for
 * the connection's turn on its loop ({@link Turns}), behind the connections whose bytes arrived
 * first, except a request for {@code /health} ({@code GET} or {@code HEAD}, as the first bytes
 * of what arrives), which is served at once, in the read that brought it. So a monitor's check that
 * arrives behind a burst is answered as soon as it is read, not after the burst has been served.
 * The check is a byte compare on the read in hand; a request that is not {@code /health} but
 * starts like one ({@code /healthz}) is told apart by the byte after the path, a space or a
 * {@code ?}. Jumping the queue gains nothing but an answer that was never limited anyway, and at
 * most one slice jumps it: what a peer pipelines behind its {@code /health} waits for a turn like
 * everyone's. Bytes that arrive while the connection waits for its turn join what it holds, and it
 * stops reading until its turn (so a peer cannot pile up more than a read or two while it waits).
 *
 * <p>Once the connection is closing, what is held and what still arrives is dropped unread.
 *
 * <p>Confined to the connection's I/O thread.
 *
 * <p>Usage: {@code ReadGate gate = new ReadGate(turns); pipeline.addLast(timeouts, gate, new HttpServerCodec(...), new HttpConnection(endpoint, timeouts, gate, tasks))}
 */
final class ReadGate extends ChannelInboundHandlerAdapter {
  static final int SLICE = 1_024;
  private static final byte[] GET_HEALTH = "GET /health".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] HEAD_HEALTH = "HEAD /health".getBytes(StandardCharsets.US_ASCII);

  private final ArrayDeque<ByteBuf> held = new ArrayDeque<>();
  private final Turns turns;
  private final Runnable turn = this::turn;
  private @Nullable ChannelHandlerContext ctx;
  private Runnable onInput = () -> {};
  private boolean reading;
  private boolean dropping;
  private boolean waitingTurn;
  private int aheadSlices = -1; // slices it may still take ahead of its turn; -1: it is not ahead

  /** @param turns the queue of the loop that serves this connection */
  ReadGate(Turns turns) {
    this.turns = Objects.requireNonNull(turns, "turns");
  }

  /** Runs {@code onInput} when the connection may pull what arrived: in its turn, or at once for {@code /health}. */
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
    if (waitingTurn) {
      held.add(bytes);
      ctx.channel().config().setAutoRead(false); // the connection turns it back on once it has taken what is held
      return;
    }
    boolean first = held.isEmpty();
    held.add(bytes);
    if (first && asksForHealth(bytes)) {
      aheadSlices = 1;
      onInput.run();
      if (!waitingTurn) {
        aheadSlices = -1;
      }
    } else {
      waitingTurn = true;
      turns.take(turn);
    }
  }

  private void turn() {
    waitingTurn = false;
    aheadSlices = -1;
    if (!dropping) {
      onInput.run();
    }
  }

  /** Whether {@code bytes} begin with a request line for {@code /health}. */
  static boolean asksForHealth(ByteBuf bytes) {
    return startsWithPath(bytes, GET_HEALTH) || startsWithPath(bytes, HEAD_HEALTH);
  }

  private static boolean startsWithPath(ByteBuf bytes, byte[] path) {
    int start = bytes.readerIndex();
    if (bytes.readableBytes() <= path.length) {
      return false;
    }
    for (int i = 0; i < path.length; i++) {
      if (bytes.getByte(start + i) != path[i]) {
        return false;
      }
    }
    byte next = bytes.getByte(start + path.length);
    return next == ' ' || next == '?';
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
   * Hands the decoder the next slice of what is held; false when nothing is, or when the rest waits
   * for the connection's turn. The decoder may decode requests from it, which reach the connection
   * before this returns.
   */
  boolean feed() {
    ByteBuf first = held.peek();
    if (first == null || dropping) {
      return false;
    }
    if (aheadSlices == 0) { // what came after a /health that jumped the queue takes a turn
      if (!waitingTurn) {
        waitingTurn = true;
        turns.take(turn);
      }
      return false;
    }
    if (aheadSlices > 0) {
      aheadSlices--;
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
