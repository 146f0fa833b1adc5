package dev.polite.examples.zoo;

import java.io.IOException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import okhttp3.Call;
import okhttp3.Interceptor;
import okhttp3.Response;

/**
 * A zoo cell's last resort: the outermost application interceptor, which passes every call
 * through untouched until {@link #cut()}, and then cancels the calls in flight (a client asleep
 * on a long pause wakes with an {@code IOException}) and fails every later call at once. It
 * bounds a cell that would otherwise run for minutes, such as a client that waits out a date
 * from a clock a minute ahead, so that one broken cell cannot stall the whole zoo or CI. A cut
 * cell's unfinished calls count as lost.
 *
 * <p>Usage: {@code builder.addInterceptor(deadline); scheduler.schedule(deadline::cut, 20, SECONDS);}
 */
final class CellDeadline implements Interceptor {
  private final Set<Call> inFlight = ConcurrentHashMap.newKeySet();
  private volatile boolean cut;

  @Override
  public Response intercept(Chain chain) throws IOException {
    Call call = chain.call();
    inFlight.add(call);
    try {
      // Checked after registering, so a cut racing with this call either sees it or is seen.
      if (cut) {
        call.cancel();
        throw new IOException("the cell's time limit passed");
      }
      return chain.proceed(chain.request());
    } finally {
      inFlight.remove(call);
    }
  }

  /** Cancels every call in flight and fails every call from now on. */
  public void cut() {
    cut = true;
    for (Call call : inFlight) {
      call.cancel();
    }
  }

  /** Whether {@link #cut()} was called. */
  public boolean wasCut() {
    return cut;
  }
}
