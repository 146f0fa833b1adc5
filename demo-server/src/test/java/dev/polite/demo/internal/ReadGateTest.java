package dev.polite.demo.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.HttpServerCodec;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * When a connection's bytes reach the decoder: in its turn on the loop, except a {@code /health}
 * request, answered in the read that brings it. An embedded channel stands for the connection, and
 * the turns are scheduled on a second one's loop, so the loop's next pass is the test's call
 * ({@link #nextPass}): an embedded channel runs its own pending tasks after every read and flush.
 */
class ReadGateTest {
  private static final String HEALTH = "GET /health HTTP/1.1\r\nHost: x\r\n\r\n";
  private static final Pattern STATUS = Pattern.compile("HTTP/1\\.1 200");

  private final EmbeddedChannel passes = new EmbeddedChannel();

  @AfterEach
  void close() {
    passes.finishAndReleaseAll();
  }

  private EmbeddedChannel connection() {
    long hour = TimeUnit.HOURS.toNanos(1);
    Endpoint endpoint = exchange -> exchange.send(200, "text/plain", exchange.path());
    Turns turns = new Turns(passes.eventLoop());
    return EmbeddedChannel.builder().handlers(new ChannelInitializer<>() {
      @Override
      protected void initChannel(Channel channel) {
        ConnectionTimeouts timeouts = new ConnectionTimeouts(hour, hour, hour);
        ReadGate gate = new ReadGate(turns);
        channel.pipeline().addLast(timeouts, gate, new HttpServerCodec(),
            new HttpConnection(endpoint, timeouts, gate, Runnable::run));
      }
    }).build();
  }

  /** {@code text} as one read from the socket. */
  private static void read(EmbeddedChannel channel, String text) {
    channel.writeInbound(Unpooled.copiedBuffer(text, StandardCharsets.ISO_8859_1));
  }

  /** The loop's next pass: the turns due run. */
  private void nextPass() {
    passes.runPendingTasks();
  }

  /** How many answers the connection has written so far. */
  private static int answers(EmbeddedChannel channel, StringBuilder written) {
    for (ByteBuf bytes; (bytes = channel.readOutbound()) != null; ) {
      written.append(bytes.toString(StandardCharsets.ISO_8859_1));
      bytes.release();
    }
    Matcher matcher = STATUS.matcher(written);
    int count = 0;
    while (matcher.find()) {
      count++;
    }
    return count;
  }

  @Test
  void aHealthCheckIsAnsweredInTheReadThatBringsIt() {
    EmbeddedChannel channel = connection();
    StringBuilder written = new StringBuilder();
    read(channel, HEALTH);
    assertThat(answers(channel, written)).as("answered before the loop's next pass").isEqualTo(1);
    channel.finishAndReleaseAll();
  }

  @Test
  void anyOtherRequestWaitsForItsTurn() {
    EmbeddedChannel channel = connection();
    StringBuilder written = new StringBuilder();
    read(channel, "GET /api/items HTTP/1.1\r\nHost: x\r\n\r\n");
    assertThat(answers(channel, written)).as("before its turn").isZero();
    nextPass();
    assertThat(answers(channel, written)).as("after its turn").isEqualTo(1);
    channel.finishAndReleaseAll();
  }

  @Test
  void whatIsPipelinedBehindAHealthCheckWaitsForATurn() {
    // One slice jumps the queue, the requests it holds whole; the rest is served in the connection's turn.
    EmbeddedChannel channel = connection();
    StringBuilder written = new StringBuilder();
    read(channel, HEALTH.repeat(100));
    assertThat(answers(channel, written)).as("answered ahead of the turns").isEqualTo(ReadGate.SLICE / HEALTH.length());
    nextPass();
    assertThat(answers(channel, written)).as("all, after its turn").isEqualTo(100);
    channel.finishAndReleaseAll();
  }

  @Test
  void onlyARequestLineForHealthJumps() {
    assertThat(asks("GET /health HTTP/1.1\r\n")).isTrue();
    assertThat(asks("GET /health?verbose=1 HTTP/1.1\r\n")).isTrue();
    assertThat(asks("HEAD /health HTTP/1.1\r\n")).isTrue();
    assertThat(asks("GET /healthz HTTP/1.1\r\n")).isFalse();
    assertThat(asks("GET /api/health HTTP/1.1\r\n")).isFalse();
    assertThat(asks("POST /health HTTP/1.1\r\n")).isFalse();
    assertThat(asks("GET /health")).as("cut short: the next byte is unknown").isFalse();
  }

  private static boolean asks(String text) {
    ByteBuf bytes = Unpooled.copiedBuffer(text, StandardCharsets.ISO_8859_1);
    try {
      return ReadGate.asksForHealth(bytes);
    } finally {
      bytes.release();
    }
  }
}
