package dev.polite.demo.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.util.concurrent.MockTicker;
import io.netty.util.concurrent.Ticker;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The parse and idle timeouts on a fake clock: the real codec and connection in an embedded
 * channel whose event loop runs on a mock ticker, so "300 ms later" is a call, not a sleep.
 */
class ConnectionTimeoutsTest {
  private static final long PARSE_MS = 300;
  private static final long IDLE_MS = 1_000;
  private static final long ANSWER_MS = 10_000;

  private final List<Exchange> held = new ArrayList<>();
  private final MockTicker ticker = Ticker.newMockTicker();

  /** An endpoint that answers /now at once and holds anything else until the test answers it. */
  private EmbeddedChannel connection() {
    ConnectionTimeouts timeouts = new ConnectionTimeouts(TimeUnit.MILLISECONDS.toNanos(PARSE_MS),
        TimeUnit.MILLISECONDS.toNanos(IDLE_MS), TimeUnit.MILLISECONDS.toNanos(ANSWER_MS));
    Endpoint endpoint = exchange -> {
      if (exchange.path().equals("/now")) {
        exchange.send(200, "text/plain", "now");
      } else {
        held.add(exchange);
      }
    };
    return EmbeddedChannel.builder().ticker(ticker).handlers(new ChannelInitializer<>() {
      @Override
      protected void initChannel(Channel channel) {
        ReadGate gate = new ReadGate(new Turns(channel.eventLoop())); // a turn runs with the channel's pending tasks
        channel.pipeline().addLast(timeouts, gate, new HttpServerCodec(),
            new HttpConnection(endpoint, timeouts, gate, Runnable::run));
      }
    }).build();
  }

  private static void send(EmbeddedChannel channel, String text) {
    channel.writeInbound(Unpooled.copiedBuffer(text, StandardCharsets.ISO_8859_1));
  }

  private void advance(EmbeddedChannel channel, long millis) {
    ticker.advanceMillis(millis);
    channel.runScheduledPendingTasks();
  }

  @Test
  void aHalfSentRequestIsClosedOnceTheParseTimeoutPasses() {
    EmbeddedChannel channel = connection();
    send(channel, "GET /now HTTP/1.1\r\nHost: x\r\nX-Slow: ");
    advance(channel, PARSE_MS - 10);
    assertThat(channel.isOpen()).as("before the parse timeout").isTrue();
    advance(channel, PARSE_MS); // the check runs every min(parse, idle): closed within twice the timeout
    assertThat(channel.isOpen()).as("after it").isFalse();
  }

  @Test
  void aSilentConnectionIsClosedOnceTheIdleTimeoutPasses() {
    EmbeddedChannel channel = connection();
    advance(channel, IDLE_MS - 10);
    assertThat(channel.isOpen()).isTrue();
    advance(channel, PARSE_MS);
    assertThat(channel.isOpen()).isFalse();
  }

  @Test
  void aRequestTheServerHoldsIsNotCutShortAndIdleCountsFromItsAnswer() {
    EmbeddedChannel channel = connection();
    send(channel, "GET /held HTTP/1.1\r\nHost: x\r\n\r\n");
    advance(channel, 5 * IDLE_MS);
    assertThat(channel.isOpen()).as("the server's own wait").isTrue();

    held.get(0).send(200, "text/plain", "later");
    channel.runPendingTasks();
    advance(channel, IDLE_MS - 10);
    assertThat(channel.isOpen()).as("idle, counted from the answer").isTrue();
    advance(channel, PARSE_MS);
    assertThat(channel.isOpen()).isFalse();
  }

  /**
   * A request the server never answers (an endpoint that lost it) does not keep its connection,
   * and so its --concurrency slot, for ever: past the answer timeout, longer than any wait of the
   * server's own, the connection is closed.
   */
  @Test
  void aRequestNeverAnsweredIsGivenUpAfterTheAnswerTimeout() {
    EmbeddedChannel channel = connection();
    send(channel, "GET /held HTTP/1.1\r\nHost: x\r\n\r\n");
    advance(channel, ANSWER_MS - 10);
    assertThat(channel.isOpen()).as("before the answer timeout").isTrue();
    advance(channel, PARSE_MS + 20); // checked every min(parse, idle)
    assertThat(channel.isOpen()).as("after it").isFalse();
  }

  @Test
  void keepAliveRequestsKeepTheConnectionWhileTheyCome() {
    EmbeddedChannel channel = connection();
    for (int i = 0; i < 10; i++) {
      send(channel, "GET /now HTTP/1.1\r\nHost: x\r\n\r\n");
      advance(channel, IDLE_MS / 2);
    }
    assertThat(channel.isOpen()).isTrue();
    assertThat(channel.outboundMessages()).as("ten answers written").hasSizeGreaterThanOrEqualTo(10);
    channel.finishAndReleaseAll();
  }
}
