package dev.polite.examples.clients;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.atomic.AtomicLong;
import okhttp3.Connection;
import okhttp3.Interceptor;
import okhttp3.OkHttpClient;
import okhttp3.Protocol;
import okhttp3.Request;
import okhttp3.Response;

/**
 * Counts what an OkHttp client puts on the wire, where it happens: a network interceptor, which
 * {@link #addTo} installs, sees every exchange OkHttp makes, one per request written to a
 * connection. That includes what OkHttp sends by itself below every application interceptor, in
 * its {@code RetryAndFollowUpInterceptor}: the same request again on a new connection (or a new
 * route) when one failed before an answer ({@code retryOnConnectionFailure}, on by default), and
 * the follow-ups it makes of some answers (a 408, a 503 with {@code Retry-After: 0}, redirects).
 * Each exchange is one attempt: {@link #sent()}, and one more in the {@link CallAttempts} its
 * request carries as a tag (the tag survives OkHttp's re-sends, which reuse the request), so a
 * call's retries are every attempt beyond its first, whoever made it.
 *
 * <p>Issue 48 (item 9): this used to count only the client's own attempts as attempts, and held
 * back every failed exchange that OkHttp then sent again, as if the server could not have read it:
 * against a server that reads a request and then drops the connection, 35 were counted where the
 * server read 43.
 *
 * <p>One exchange is not sent: one OkHttp starts on a pooled connection that the server has
 * already closed, which the server can never read. OkHttp probes no pooled connection before a
 * GET (it probes before other methods, and only after 10 s idle), so it writes the request, fails
 * to read an answer, and sends it again on a new connection. Counted as it is, that one failed
 * exchange would be one more "sent" than the server read (issue 27: 10 calls to Python's
 * {@code http.server} counted as 19 sent). So before an exchange on a connection it has seen
 * before, the counter asks whether the server has closed it, and if so closes it too, before
 * anything is written: OkHttp's write fails at once and it sends the request again on a new
 * connection, as it would have after its failed read, and the counter counts a
 * {@link #staleConnections() stale connection} instead of an attempt. A connection is known closed:
 * <ul>
 *   <li>when its last answer said so: HTTP/1.0 without {@code Connection: keep-alive}, which per
 *       RFC 9112, section 9.3, closes after the answer (OkHttp honours only {@code Connection:
 *       close}), so the answer's close always beats the next request;
 *   <li>when it sat idle for {@value #PROBE_AFTER_IDLE_MILLIS} ms or more (a server's keep-alive
 *       timeout may have closed it) and a read of at most a millisecond finds its end, or finds a
 *       byte the server sent unasked (a parting 408, say), which leaves the connection unusable
 *       too. Only then: the probe costs up to a millisecond when the connection is fine, a
 *       thousandth of the idle time before it. A server that closes idle connections sooner than
 *       that, or at the very moment a request is written, can still have a request counted that
 *       it never read.
 * </ul>
 * HTTP/2 connections are not probed (a read would take a frame); OkHttp watches those itself.
 *
 * <p>Thread-safe: the per-connection state is in a synchronized weak map, and OkHttp gives an
 * HTTP/1 connection to one exchange at a time.
 *
 * <p>Usage: {@code AttemptCounter counter = new AttemptCounter(System.nanoTime()); counter.addTo(builder); ... counter.sent();}
 */
public final class AttemptCounter implements WireCount {
  /** How long a pooled connection must have sat idle before it is probed for the server's close. */
  static final long PROBE_AFTER_IDLE_MILLIS = 1_000;

  private final long startNanos;
  private final long probeAfterIdleNanos;
  private final List<SentAttempt> attempts = new ArrayList<>();
  private final AtomicLong sent = new AtomicLong();
  private final AtomicLong rejected = new AtomicLong();
  private final AtomicLong staleConnections = new AtomicLong();
  /** What the last answer on each connection said, while OkHttp may use it again. */
  private final Map<Connection, LastAnswer> connections = Collections.synchronizedMap(new WeakHashMap<>());
  private final Interceptor networkSide = this::exchange;

  /** @param startNanos the run's start on {@link System#nanoTime()}: attempt times count from it */
  public AttemptCounter(long startNanos) {
    this(startNanos, PROBE_AFTER_IDLE_MILLIS * 1_000_000);
  }

  /** As above, probing pooled connections idle for {@code probeAfterIdleNanos} or more (tests). */
  AttemptCounter(long startNanos, long probeAfterIdleNanos) {
    this.startNanos = startNanos;
    this.probeAfterIdleNanos = probeAfterIdleNanos;
  }

  /**
   * Adds the counter as one of the builder's network interceptors.
   *
   * @return {@code builder}
   */
  public OkHttpClient.Builder addTo(OkHttpClient.Builder builder) {
    return builder.addNetworkInterceptor(networkSide);
  }

  /** Attempts written to a connection the server had not closed: every exchange but the stale ones. */
  @Override
  public long sent() {
    return sent.get();
  }

  /** Rate-limit rejections received so far. */
  @Override
  public long rejected() {
    return rejected.get();
  }

  /**
   * Exchanges OkHttp began on a pooled connection that the server had already closed: closed
   * before anything was written, and sent again by OkHttp on a new connection; not in
   * {@link #sent()}, no attempt of their call's.
   */
  @Override
  public long staleConnections() {
    return staleConnections.get();
  }

  /** Every attempt counted in {@link #sent()}, in the order they were sent. */
  @Override
  public List<SentAttempt> attempts() {
    synchronized (attempts) {
      List<SentAttempt> copy = new ArrayList<>(attempts);
      copy.sort(Comparator.comparingLong(SentAttempt::sentNanos));
      return copy;
    }
  }

  private Response exchange(Interceptor.Chain chain) throws IOException {
    Request request = chain.request();
    Connection connection = chain.connection(); // a network interceptor's chain always has one
    LastAnswer last = connection == null ? null : connections.remove(connection);
    if (connection != null && last != null && closedByServer(connection, last)) {
      staleConnections.incrementAndGet();
      connection.socket().close();
      return chain.proceed(request); // fails before a byte is written; OkHttp sends it again elsewhere
    }
    CallAttempts call = request.tag(CallAttempts.class);
    if (call != null) {
      call.attempted();
    }
    long sentAt = System.nanoTime() - startNanos;
    Response response;
    try {
      response = chain.proceed(request);
    } catch (IOException | RuntimeException e) {
      countSent(new SentAttempt(sentAt, 0, false)); // OkHttp does not use a failed connection again
      throw e;
    }
    boolean rateLimited = RateLimitRejection.is(response);
    if (rateLimited) {
      rejected.incrementAndGet();
      if (call != null) {
        call.rejected();
      }
    }
    countSent(new SentAttempt(sentAt, response.code(), rateLimited));
    if (connection != null) {
      connections.put(connection, new LastAnswer(System.nanoTime(), closesAfter(response)));
    }
    return response;
  }

  private void countSent(SentAttempt attempt) {
    sent.incrementAndGet();
    synchronized (attempts) {
      attempts.add(attempt);
    }
  }

  /** Whether the server has closed {@code connection}, or said it would after its last answer. */
  private boolean closedByServer(Connection connection, LastAnswer last) {
    if (last.closes) {
      return true;
    }
    Protocol protocol = connection.protocol();
    boolean http1 = protocol == Protocol.HTTP_1_1 || protocol == Protocol.HTTP_1_0;
    return http1 && System.nanoTime() - last.nanos >= probeAfterIdleNanos && endedWhileIdle(connection.socket());
  }

  /**
   * Whether a read of at most a millisecond on an idle HTTP/1 connection finds its end, or a byte
   * nobody asked for; false when it times out, as on a connection still open. The socket's own
   * timeout is put back.
   */
  private static boolean endedWhileIdle(Socket socket) {
    try {
      int timeout = socket.getSoTimeout();
      try {
        socket.setSoTimeout(1);
        InputStream in = socket.getInputStream();
        in.read(); // -1 at the end; a byte the server sent unasked ends the connection's use too
        return true;
      } finally {
        if (!socket.isClosed()) {
          socket.setSoTimeout(timeout);
        }
      }
    } catch (SocketTimeoutException open) {
      return false;
    } catch (IOException broken) {
      return true; // reset by the server
    }
  }

  /** Whether the server closes the connection after {@code response}: HTTP/1.0 not kept alive. */
  private static boolean closesAfter(Response response) {
    return response.protocol() == Protocol.HTTP_1_0
        && !response.header("Connection", "").toLowerCase(Locale.ROOT).contains("keep-alive");
  }

  /**
   * The last answer on a connection: when it came, and whether it said the connection closes after
   * it.
   */
  private record LastAnswer(long nanos, boolean closes) {}
}
