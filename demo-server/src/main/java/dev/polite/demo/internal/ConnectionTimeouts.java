package dev.polite.demo.internal;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.concurrent.Ticker;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * Closes a connection that holds the server without asking anything of it:
 *
 * <ul>
 *   <li><b>parse timeout</b>: bytes of a request have arrived, but not yet its whole line and
 *       headers (a half-sent request: the slow-loris attack);
 *   <li><b>idle timeout</b>: no request under way and nothing arriving (a silent connection);
 *   <li><b>answer timeout</b>: a request under way for longer than the server can hold one (its
 *       longest wait, {@link HttpFront#answerTimeoutNanos}). Only a lost answer gets there (an
 *       endpoint that threw an {@link Error} from a timer, say): the connection is closed rather
 *       than kept "under way" for ever with its {@code --concurrency} slot held.
 * </ul>
 *
 * <p>While a request is under way, neither the parse nor the idle timeout runs: the server's own
 * waits (simulated latency, the leaky queue) are not the peer's doing.
 *
 * <p>It sits in front of the HTTP decoder, where it sees bytes arrive; {@link HttpConnection}
 * tells it when a request's headers are complete and when its answer has gone. A request costs two
 * clock reads and no timer: one check per connection runs every {@code min(parse, idle)} and
 * reschedules itself, as Netty's {@code IdleStateHandler} does, so a connection is closed within
 * its timeout plus at most that interval. Time is the event loop's ticker, the clock its timers
 * run on (a mock one in tests).
 *
 * <p>Confined to the connection's I/O thread.
 *
 * <p>Usage: {@code pipeline.addLast(new ConnectionTimeouts(parseNanos, idleNanos, answerNanos), gate, new HttpServerCodec(), ...)}
 */
final class ConnectionTimeouts extends ChannelInboundHandlerAdapter {
  private final long parseNanos;
  private final long idleNanos;
  private final long answerNanos;
  private final long checkEvery;
  private int underWay; // requests whose headers arrived and whose answer has not gone
  private long awaitingSince; // when the last answer went (or the connection opened)
  private long underWaySince; // when the oldest request under way began: its first byte, or the answer before it
  private long partialSince = -1; // when the first byte of the next request arrived; -1: none yet
  private @Nullable ScheduledFuture<?> check;
  private @Nullable Ticker ticker;

  /**
   * @param parseNanos the time a request's line and headers may take to arrive
   * @param idleNanos the time a connection may stay with no request under way
   * @param answerNanos the time a request may stay under way, longer than any wait of the server's own
   */
  ConnectionTimeouts(long parseNanos, long idleNanos, long answerNanos) {
    this.parseNanos = parseNanos;
    this.idleNanos = idleNanos;
    this.answerNanos = answerNanos;
    this.checkEvery = Math.min(parseNanos, idleNanos);
  }

  @Override
  public void channelActive(ChannelHandlerContext ctx) throws Exception {
    ticker = ctx.executor().ticker();
    awaitingSince = now();
    schedule(ctx, checkEvery);
    super.channelActive(ctx);
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) throws Exception {
    if (check != null) {
      check.cancel(false);
      check = null;
    }
    super.channelInactive(ctx);
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
    if (underWay == 0 && partialSince < 0) {
      partialSince = now();
    }
    ctx.fireChannelRead(msg);
  }

  /** A request's line and headers are complete: its parse is over. */
  void requestArrived() {
    if (underWay++ == 0) {
      // no clock read: from its first byte, or, if it came in the read of the one before, that one's answer
      underWaySince = partialSince >= 0 ? partialSince : awaitingSince;
    }
    partialSince = -1;
  }

  /** A request's answer has been written: the connection awaits the next, or starts on it. */
  void answered() {
    if (underWay > 0) {
      long now = now();
      if (--underWay == 0) {
        awaitingSince = now;
      } else {
        underWaySince = now; // the next one, pipelined, is the server's from now
      }
    }
  }

  private void check(ChannelHandlerContext ctx) {
    check = null;
    if (!ctx.channel().isActive()) {
      return;
    }
    if (underWay > 0) {
      if (now() - underWaySince > answerNanos) {
        ctx.close();
        return;
      }
      schedule(ctx, checkEvery);
      return;
    }
    long deadline = partialSince >= 0 ? partialSince + parseNanos : awaitingSince + idleNanos;
    long left = deadline - now();
    if (left <= 0) {
      ctx.close();
      return;
    }
    schedule(ctx, Math.min(left, checkEvery));
  }

  private long now() {
    Ticker clock = ticker;
    return clock != null ? clock.nanoTime() : System.nanoTime();
  }

  private void schedule(ChannelHandlerContext ctx, long nanos) {
    check = ctx.executor().schedule(() -> check(ctx), nanos, TimeUnit.NANOSECONDS);
  }
}
