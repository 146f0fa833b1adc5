package dev.polite.demo.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpHeadersFactory;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpHeadersFactory;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * One request and its one answer, on a connection ({@link Line}, an {@link HttpConnection}). An endpoint reads the request
 * (path, query, headers, peer), sets response headers, and sends; the connection writes the answer
 * in request order, closes afterwards when the request asked for that (or its body is still
 * arriving, which no endpoint reads), then starts the next request it holds.
 *
 * <p>Response headers are collected unvalidated: every name and value the server sets is its own
 * constant or a number it formatted, never text from the request.
 *
 * <p>Not thread-safe: one thread at a time (the I/O thread, or the worker or timer it was handed
 * to with {@link #dispatch} or {@link #later}). {@link #send} may be called from any thread.
 *
 * <p>Usage: {@code exchange.header("Retry-After", "1"); exchange.send(429, "application/json", "{}");}
 */
public final class Exchange {
  /**
   * What an exchange needs of the connection it came on: who is at the other end, its threads,
   * and where its one answer goes. {@link HttpConnection} is one; the exchange names only this,
   * so the connection, which makes exchanges, stays above it.
   */
  interface Line {
    /** The peer. */
    InetSocketAddress peer();

    /** The limiter's key for the peer alone, worked out once per connection by {@code keyOf}. */
    String peerKey(Function<InetSocketAddress, String> keyOf);

    /** Runs {@code task} after {@code delay} on the connection's I/O thread. */
    void later(long delay, TimeUnit unit, Runnable task);

    /** Runs {@code task} on a worker thread. */
    void dispatch(Runnable task);

    /** Writes {@code exchange}'s answer (from any thread). */
    void answer(Exchange exchange, FullHttpResponse response);

    /** Closes the connection with no answer to {@code exchange} (from any thread). */
    void drop(Exchange exchange);
  }

  private static final HttpHeadersFactory RESPONSE_HEADERS = DefaultHttpHeadersFactory.headersFactory()
      .withValidation(false).withCombiningHeaders(false);
  private static final HttpHeaders NO_TRAILERS = DefaultHttpHeadersFactory.trailersFactory()
      .withValidation(false).newEmptyHeaders();

  private final Line connection;
  private final HttpRequest request;
  private final boolean keepAlive;
  private final HttpHeaders response = RESPONSE_HEADERS.newHeaders();
  private @Nullable String path;
  private @Nullable QueryStringDecoder query;
  private @Nullable Runnable whenDone;
  private boolean sent;
  private boolean ended; // guarded by this: the connection may end it while a worker runs it

  Exchange(Line connection, HttpRequest request, boolean keepAlive) {
    this.connection = connection;
    this.request = request;
    this.keepAlive = keepAlive;
  }

  /** The request's method, such as {@code GET}. */
  public String method() {
    return request.method().name();
  }

  /** The request's path, percent-decoded, without the query. */
  public String path() {
    if (path == null) {
      String uri = request.uri();
      int question = uri.indexOf('?');
      String raw = question < 0 ? uri : uri.substring(0, question);
      path = raw.indexOf('%') < 0 && raw.indexOf('+') < 0 ? raw : queryDecoder().path();
    }
    return path;
  }

  /** The first value of query parameter {@code name}, or null. */
  public @Nullable String queryParameter(String name) {
    List<String> values = queryDecoder().parameters().get(name);
    return values == null || values.isEmpty() ? null : values.get(0);
  }

  /** The first value of request header {@code name}, or null. */
  public @Nullable String requestHeader(CharSequence name) {
    return request.headers().get(name);
  }

  /** Every value of request header {@code name}, in order; empty when there is none. */
  public List<String> requestHeaders(CharSequence name) {
    return request.headers().getAll(name);
  }

  /** The connection's peer. */
  public InetSocketAddress peer() {
    return connection.peer();
  }

  /** The limiter's key for the peer alone, worked out once per connection by {@code keyOf}. */
  public String peerKey(Function<InetSocketAddress, String> keyOf) {
    return connection.peerKey(keyOf);
  }

  /** Sets response header {@code name} to {@code value}, replacing any. */
  public void header(CharSequence name, CharSequence value) {
    response.set(name, value);
  }

  /** Runs {@code done} once this exchange ends: its answer written, or its connection gone. */
  public synchronized void whenDone(Runnable done) {
    if (ended) { // the connection went first
      done.run();
      return;
    }
    Runnable before = whenDone;
    whenDone = before == null ? done : () -> {
      before.run();
      done.run();
    };
  }

  /** Runs {@code task} after {@code delayNanos} on the connection's I/O thread (a timer, no thread held). */
  public void later(long delayNanos, Runnable task) {
    connection.later(delayNanos, TimeUnit.NANOSECONDS, task);
  }

  /** Runs {@code task} on a worker thread, for work that may block (a Redis round trip). */
  public void dispatch(Runnable task) {
    connection.dispatch(task);
  }

  /** Answers {@code status} with {@code body} as UTF-8 text of {@code contentType}. */
  public void send(int status, CharSequence contentType, String body) {
    send(status, contentType, Unpooled.wrappedBuffer(body.getBytes(StandardCharsets.UTF_8)));
  }

  /**
   * Answers {@code status} with {@code body} of {@code contentType}; the answer takes ownership of
   * {@code body} (pass a {@code retainedDuplicate()} of a prepared one).
   */
  public void send(int status, CharSequence contentType, ByteBuf body) {
    if (sent) {
      body.release();
      throw new IllegalStateException("already answered: " + request.method() + " " + request.uri());
    }
    sent = true;
    response.set(HttpHeaderNames.CONTENT_TYPE, contentType);
    response.setInt(HttpHeaderNames.CONTENT_LENGTH, body.readableBytes());
    HttpVersion version = request.protocolVersion() == HttpVersion.HTTP_1_0 ? HttpVersion.HTTP_1_0 : HttpVersion.HTTP_1_1;
    if (!keepAlive) {
      response.set(HttpHeaderNames.CONNECTION, "close");
    } else if (version == HttpVersion.HTTP_1_0) {
      response.set(HttpHeaderNames.CONNECTION, "keep-alive");
    }
    FullHttpResponse answer = new DefaultFullHttpResponse(version, HttpResponseStatus.valueOf(status), body,
        response, NO_TRAILERS);
    connection.answer(this, answer);
  }

  /** Ends this exchange with no answer at all: its connection is closed, as a server that fell over. */
  public void drop() {
    if (sent) {
      throw new IllegalStateException("already answered: " + request.method() + " " + request.uri());
    }
    sent = true;
    connection.drop(this);
  }

  boolean keepAlive() {
    return keepAlive;
  }

  boolean sent() {
    return sent;
  }

  /** Runs the done listener, once. */
  synchronized void done() {
    ended = true;
    Runnable done = whenDone;
    whenDone = null;
    if (done != null) {
      done.run();
    }
  }

  @Override
  public String toString() {
    return request.method() + " " + request.uri();
  }

  private QueryStringDecoder queryDecoder() {
    if (query == null) {
      query = new QueryStringDecoder(request.uri());
    }
    return query;
  }
}
