package dev.polite.okhttp;

import dev.polite.HeaderLines;
import dev.polite.ResponseView;
import java.io.IOException;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import okhttp3.Headers;
import okhttp3.Response;
import okio.Timeout;
import org.jspecify.annotations.Nullable;

/**
 * An OkHttp {@link Response} as polite reads it: its code, its {@link Headers} as they are (one
 * object is both the view and its header lines), whether the network answered it rather than
 * OkHttp's cache, and a peek at its body that leaves the body readable.
 *
 * <pre>{@code RateLimitSignals s = RateLimitHeaders.standard().parse(OkHttpResponseView.of(response));}</pre>
 *
 * <p>Immutable.
 */
public final class OkHttpResponseView implements ResponseView, HeaderLines {
  /**
   * How long a rejection's body may take to arrive for its hint to be read: an API writes its
   * error body with the headers, so it is here within a round trip or two of them; a second is
   * many round trips on any link, and bounds what a server that trickles the body costs the call.
   */
  private static final long BODY_PEEK_NANOS = 1_000_000_000L;

  private final Response response;

  private OkHttpResponseView(Response response) {
    this.response = response;
  }

  /** The view of {@code response}. */
  public static OkHttpResponseView of(Response response) {
    return new OkHttpResponseView(Objects.requireNonNull(response, "response"));
  }

  @Override
  public int status() {
    return response.code();
  }

  @Override
  public HeaderLines headers() {
    return this;
  }

  @Override
  public int size() {
    return response.headers().size();
  }

  @Override
  public String name(int index) {
    return response.headers().name(index);
  }

  @Override
  public String value(int index) {
    return response.headers().value(index);
  }

  @Override
  public @Nullable String first(String name) {
    Headers headers = response.headers();
    for (int i = 0, n = headers.size(); i < n; i++) {
      if (headers.name(i).equalsIgnoreCase(name)) {
        return headers.value(i);
      }
    }
    return null;
  }

  /** The last line named {@code name}, as OkHttp's {@code Response.header} reads it. */
  @Override
  public @Nullable String header(String name) {
    return response.header(name);
  }

  /** Answers from OkHttp's cache say nothing about the server's budget now. */
  @Override
  public boolean fromServer() {
    return response.networkResponse() != null || response.cacheResponse() == null;
  }

  /**
   * A prefix of the body, read for at most a second; the body itself stays readable for the
   * caller, unless it was still coming at that time (then the call is cut off there, and its
   * answer returned with a body that fails to read, as a read time-out's).
   */
  @Override
  public @Nullable String bodyPrefix(int maxBytes) {
    Timeout timeout = response.body().source().timeout();
    boolean hadDeadline = timeout.hasDeadline();
    long deadline = hadDeadline ? timeout.deadlineNanoTime() : 0;
    timeout.deadline(BODY_PEEK_NANOS, TimeUnit.NANOSECONDS); // on Okio's clock, as its reads
    if (hadDeadline && deadline - timeout.deadlineNanoTime() < 0) {
      timeout.deadlineNanoTime(deadline); // the call's own deadline comes first
    }
    try {
      return response.peekBody(maxBytes).string();
    } catch (IOException e) {
      return null; // a body we cannot read has no hint in it; the answer is still returned
    } finally {
      if (hadDeadline) {
        timeout.deadlineNanoTime(deadline);
      } else {
        timeout.clearDeadline();
      }
    }
  }

  @Override
  public <T> @Nullable T unwrap(Class<T> type) {
    return type.isInstance(response) ? type.cast(response) : null;
  }

  @Override
  public String toString() {
    return response.code() + " " + response.request().url().redact();
  }
}
