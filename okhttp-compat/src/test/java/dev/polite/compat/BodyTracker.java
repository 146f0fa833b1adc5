package dev.polite.compat;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import okhttp3.Interceptor;
import okhttp3.MediaType;
import okhttp3.Response;
import okhttp3.ResponseBody;
import okio.BufferedSource;
import okio.ForwardingSource;
import okio.Okio;
import org.jspecify.annotations.Nullable;

/**
 * A network interceptor that wraps every body off the wire so a test can ask whether each was
 * closed: the ones polite returned (closed by the test) and the ones it dropped (closed by
 * polite).
 */
final class BodyTracker implements Interceptor {
  private final List<Tracked> bodies = new ArrayList<>();

  @Override
  public Response intercept(Chain chain) throws IOException {
    Response response = chain.proceed(chain.request());
    Tracked body = new Tracked(response.body());
    synchronized (bodies) {
      bodies.add(body);
    }
    return response.newBuilder().body(body).build();
  }

  int count() {
    synchronized (bodies) {
      return bodies.size();
    }
  }

  long unclosed() {
    synchronized (bodies) {
      return bodies.stream().filter(b -> !b.closed).count();
    }
  }

  private static final class Tracked extends ResponseBody {
    private final ResponseBody delegate;
    private @Nullable BufferedSource source;
    volatile boolean closed;

    Tracked(ResponseBody delegate) {
      this.delegate = delegate;
    }

    @Override
    public @Nullable MediaType contentType() {
      return delegate.contentType();
    }

    @Override
    public long contentLength() {
      return delegate.contentLength();
    }

    @Override
    public synchronized BufferedSource source() {
      if (source == null) {
        source = Okio.buffer(new ForwardingSource(delegate.source()) {
          @Override
          public void close() throws IOException {
            closed = true;
            super.close();
          }
        });
      }
      return source;
    }
  }
}
