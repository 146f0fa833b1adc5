package dev.polite;

import dev.polite.internal.Acquisition;
import dev.polite.internal.Attempt;
import dev.polite.internal.KeyState;
import dev.polite.internal.Nanos;
import dev.polite.internal.Patience;
import dev.polite.internal.Permit;
import dev.polite.internal.RetryRules;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import kotlin.jvm.JvmClassMappingKt;
import kotlin.jvm.functions.Function0;
import kotlin.reflect.KClass;
import okhttp3.Call;
import okhttp3.Callback;
import okhttp3.EventListener;
import okhttp3.Request;
import okhttp3.Response;
import okio.Timeout;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A call made by {@link PoliteCallFactory}. {@code execute()} hands the request to the client,
 * whose interceptor waits as usual. {@code enqueue()} walks the key's {@linkplain KeyState#step
 * steps} instead: each step either wins the permit (and the attempt goes to OkHttp's dispatcher,
 * tagged with it, for the interceptor to send and learn from), or names the time of the next
 * step (a task on the scheduler), or waits for the key's signal (a callback the key runs when an
 * answer opens its gate). Between steps no thread is held.
 *
 * <h2>Turns</h2>
 * Every scheduled task and gate callback carries the turn it was made in; a new step, a send or
 * a cancel starts a new turn, so a late task or a second wake-up of the same turn does nothing.
 *
 * <p>Thread-safe: steps, answers and cancellation meet under this call's lock (taken before a
 * key's, never after), and the callback hears exactly once.
 */
final class PoliteCall implements Call {
  private static final Logger log = LoggerFactory.getLogger("dev.polite");
  private static final long NOT_WAITING = Long.MIN_VALUE;

  private final PoliteCallFactory factory;
  private final PoliteInterceptor polite;
  private final Request request;
  private final Timeout timeout;
  private final AtomicBoolean executed = new AtomicBoolean();
  private final AtomicBoolean finished = new AtomicBoolean();
  private final Map<Class<?>, Object> tags = new ConcurrentHashMap<>();
  private final List<EventListener> eventListeners = new CopyOnWriteArrayList<>();
  private volatile boolean canceled;

  // Guarded by this.
  private @Nullable Call inner;
  private @Nullable Callback callback;
  private @Nullable CallRun run;
  private @Nullable Acquisition acquisition;
  private Scheduler.@Nullable Scheduled scheduled;
  private long waitingSince = NOT_WAITING;
  private boolean onTheWire;
  private int turn;

  PoliteCall(PoliteCallFactory factory, Request request) {
    this.factory = factory;
    this.polite = factory.interceptor();
    this.request = request;
    this.timeout = new Timeout().timeout(factory.client().callTimeoutMillis(), TimeUnit.MILLISECONDS);
  }

  @Override
  public Request request() {
    return request;
  }

  @Override
  public Response execute() throws IOException {
    markExecuted();
    Call call = newInner(Handoff.blocking(polite.contextOf(request, this)));
    call.timeout().timeout(timeout.timeoutNanos(), TimeUnit.NANOSECONDS);
    if (timeout.hasDeadline()) {
      call.timeout().deadlineNanoTime(timeout.deadlineNanoTime());
    }
    synchronized (this) {
      inner = call;
    }
    if (canceled) {
      call.cancel();
    }
    return call.execute();
  }

  @Override
  public void enqueue(Callback responseCallback) {
    Objects.requireNonNull(responseCallback, "responseCallback");
    markExecuted();
    CallContext call;
    try {
      call = polite.contextOf(request, this);
    } catch (IOException badCost) {
      // the call's failure, heard as every other is: on the dispatcher, not thrown from enqueue
      synchronized (this) {
        callback = responseCallback;
      }
      failSoon(badCost);
      return;
    }
    int first;
    synchronized (this) {
      callback = responseCallback;
      run = new CallRun(polite, call, this, polite.config().ticker().read());
      first = turn; // a cancel before enqueue moved it on; the step then reports the cancel
    }
    step(first);
  }

  private void markExecuted() {
    if (!executed.compareAndSet(false, true)) {
      throw new IllegalStateException("Already Executed");
    }
  }

  /** One step towards the next attempt's permit, in turn {@code ofTurn}. */
  private void step(int ofTurn) {
    IOException failure;
    synchronized (this) {
      if (ofTurn != turn || finished.get()) {
        return; // a late task, or the other of a wake-up and its time-out
      }
      CallRun run = Objects.requireNonNull(this.run);
      KeyState key = run.state();
      Patience patience = run.patience();
      if (canceled) {
        failure = new InterruptedIOException("Canceled");
      } else {
        long now = polite.config().ticker().read();
        if (waitingSince != NOT_WAITING) {
          patience.waited(waitingSince, now);
          waitingSince = NOT_WAITING;
        }
        if (acquisition == null) {
          acquisition = new Acquisition(run.call(), patience.waited());
        }
        int next = ++turn;
        if (scheduled != null) {
          scheduled.cancel(); // the time-out of a gate wait that a signal ended; no-op if it is this
          scheduled = null;
        }
        try {
          long wait = key.step(acquisition, patience, now, () -> wake(next));
          Permit permit = acquisition.permit();
          if (wait == KeyState.RETIRED || permit != null) {
            acquisition = null;
            // Forgotten while this call held it, or, while it waited, an answer showed the route
            // spends another budget: step on the state the call's budget has now.
            if (run.movedAfter(permit, key)) {
              scheduled = factory.scheduler().runAt(now, () -> step(next));
              return;
            }
            send(key, Objects.requireNonNull(permit), now);
            return;
          }
          waitingSince = now;
          // At the gate, the wait ends with the key's signal, or with the call's patience.
          long until = Nanos.add(now, wait == KeyState.AWAIT_SIGNAL ? patience.left(now) : wait);
          scheduled = factory.scheduler().runAt(until, () -> step(next));
          return;
        } catch (RateLimitedException tooLong) {
          acquisition = null; // the key released it
          failure = tooLong;
        }
      }
    }
    failSoon(failure);
  }

  /** The key's gate may have opened: step again soon. Runs under the key's lock: hand on only. */
  private void wake(int ofTurn) {
    factory.scheduler().runAt(polite.config().ticker().read(), () -> step(ofTurn));
  }

  /** Hands the attempt to OkHttp's dispatcher with its permit. */
  private void send(KeyState key, Permit permit, long now) {
    CallRun run = Objects.requireNonNull(this.run);
    Handoff handoff = Handoff.attempt(run.call(), key, permit);
    try {
      Call call = newInner(handoff);
      long left = run.patience().deadlineLeft(now);
      if (left != Long.MAX_VALUE) {
        call.timeout().timeout(Math.max(1, left), TimeUnit.NANOSECONDS);
      }
      inner = call;
      onTheWire = true;
      call.enqueue(new AttemptCallback(handoff));
    } catch (RuntimeException thrown) {
      // The application's code can throw here (an EventListener's callStart runs inside
      // enqueue). On the scheduler's thread the exception would be swallowed and the callback
      // never heard, with the permit held for ever: the permit goes back and the call fails.
      inner = null;
      onTheWire = false;
      if (handoff.claim()) {
        key.onFailure();
      }
      failSoon(new IOException("polite: the attempt could not be enqueued: " + thrown, thrown));
    }
  }

  private Call newInner(Handoff handoff) {
    Call call = factory.client().newCall(request.newBuilder().tag(Handoff.class, handoff).build());
    for (EventListener listener : eventListeners) {
      EventListeners.add(call, listener);
    }
    return call;
  }

  /** What an attempt came back with: the call's end, or its next attempt's wait. */
  private final class AttemptCallback implements Callback {
    private final Handoff handoff;

    AttemptCallback(Handoff handoff) {
      this.handoff = handoff;
    }

    @Override
    public void onResponse(Call call, Response response) {
      if (handoff.claim()) {
        // Something before polite in the chain answered: the permit was never used.
        handoff.state().onFailure();
        deliver(response, null);
        return;
      }
      Attempt attempt = handoff.attempt();
      if (attempt == null) {
        deliver(response, null);
      } else {
        afterAttempt(attempt);
      }
    }

    @Override
    public void onFailure(Call call, IOException e) {
      if (handoff.claim()) {
        handoff.state().onFailure(); // cancelled or refused before polite sent it
        deliver(null, e);
        return;
      }
      Attempt attempt = handoff.attempt();
      if (attempt == null) {
        deliver(null, e); // not worth a retry: the interceptor rethrew it
      } else {
        afterAttempt(attempt);
      }
    }
  }

  private void afterAttempt(Attempt attempt) {
    Response response = null;
    IOException failure = null;
    synchronized (this) {
      onTheWire = false;
      if (finished.get()) {
        CallRun.closeQuietly(attempt);
        return;
      }
      if (canceled) {
        CallRun.closeQuietly(attempt);
        failure = new InterruptedIOException("Canceled");
      } else {
        CallRun run = Objects.requireNonNull(this.run);
        RetryRules.Next next = run.next(attempt); // on the budget the answer showed it spends
        if (!next.finish()) {
          waitingSince = attempt.at();
          int retryTurn = ++turn;
          scheduled = factory.scheduler().runAt(
              Nanos.add(attempt.at(), next.delay().toNanos()), () -> step(retryTurn));
          return;
        }
        try {
          response = run.finish(attempt, next);
        } catch (IOException e) {
          failure = e;
        }
      }
    }
    deliver(response, failure);
  }

  /** Tells the callback, once; a second answer is closed unheard. Runs on a dispatcher thread. */
  private void deliver(@Nullable Response response, @Nullable IOException failure) {
    if (!finished.compareAndSet(false, true)) {
      if (response != null) {
        response.close();
      }
      return;
    }
    Callback heard = Objects.requireNonNull(callback);
    if (response == null) {
      heard.onFailure(this, Objects.requireNonNull(failure));
      return;
    }
    try {
      heard.onResponse(this, response);
    } catch (IOException e) {
      log.info("polite: the callback of {} threw", run == null ? this : run.call(), e); // as OkHttp's own calls log it
    }
  }

  /**
   * Fails the call from the scheduler or a cancelling thread: the callback runs on OkHttp's
   * dispatcher executor, as every other callback does, never on the scheduler's one thread.
   */
  private void failSoon(IOException failure) {
    Runnable report = () -> deliver(null, failure);
    try {
      factory.client().dispatcher().executorService().execute(report);
    } catch (RejectedExecutionException shutDown) {
      report.run();
    }
  }

  @Override
  public void cancel() {
    canceled = true;
    Call call;
    boolean waiting;
    synchronized (this) {
      call = inner;
      turn++; // void the pending step and any wake-up
      if (scheduled != null) {
        scheduled.cancel();
        scheduled = null;
      }
      if (acquisition != null && run != null) {
        run.state().abandon(acquisition);
        acquisition = null;
      }
      waiting = callback != null && !onTheWire;
    }
    if (waiting) {
      failSoon(new InterruptedIOException("Canceled"));
    } else if (call != null) {
      call.cancel();
    }
  }

  @Override
  public boolean isExecuted() {
    return executed.get();
  }

  @Override
  public boolean isCanceled() {
    return canceled;
  }

  @Override
  public Timeout timeout() {
    return timeout;
  }

  @Override
  public Call clone() {
    return factory.newCall(request);
  }

  // OkHttp 5's additions to Call (no @Override, so that polite still compiles against 4.12).

  /** Adds an event listener to every attempt of this call (OkHttp 5). */
  public void addEventListener(EventListener listener) {
    eventListeners.add(Objects.requireNonNull(listener, "listener"));
  }

  /** This call's tag of {@code type} (OkHttp 5's call tags), or null. */
  public <T> @Nullable T tag(Class<? extends T> type) {
    @SuppressWarnings("unchecked")
    T tag = (T) tags.get(type);
    return tag;
  }

  /** This call's tag of {@code type}, made by {@code computeIfAbsent} when absent (OkHttp 5). */
  public <T> T tag(Class<T> type, Function0<? extends T> computeIfAbsent) {
    return type.cast(tags.computeIfAbsent(type, k -> computeIfAbsent.invoke()));
  }

  /** This call's tag of {@code type} (OkHttp 5's call tags), or null. */
  public <T> @Nullable T tag(KClass<T> type) {
    return tag(JvmClassMappingKt.getJavaClass(type));
  }

  /** This call's tag of {@code type}, made by {@code computeIfAbsent} when absent (OkHttp 5). */
  public <T> T tag(KClass<T> type, Function0<? extends T> computeIfAbsent) {
    return tag(JvmClassMappingKt.getJavaClass(type), computeIfAbsent);
  }

  @Override
  public String toString() {
    return "PoliteCall{" + request.method() + " " + request.url().redact() + '}';
  }

  /**
   * Where the call is now, for a test whose callback went unheard: its turn, whether a step is
   * scheduled, what it holds at its key, whether an attempt is with OkHttp.
   */
  synchronized String whereNow() {
    KeyState key = run == null ? null : run.state();
    Call attempt = inner;
    return "turn=" + turn + " finished=" + finished.get() + " canceled=" + canceled
        + " onTheWire=" + onTheWire + " scheduled=" + (scheduled != null)
        + " waiting=" + (waitingSince != NOT_WAITING)
        + " acquisition=" + (acquisition == null ? "none"
            : key == null ? "?" : key.describe(acquisition))
        + " attempt=" + (attempt == null ? "none" : "executed=" + attempt.isExecuted()
            + " canceled=" + attempt.isCanceled()
            + " queued=" + factory.client().dispatcher().queuedCalls().contains(attempt)
            + " running=" + factory.client().dispatcher().runningCalls().contains(attempt));
  }

  /** OkHttp 5's {@code Call.addEventListener}, reached by reflection so 4.12 still links. */
  private static final class EventListeners {
    private static final @Nullable Method ADD = find();

    private static @Nullable Method find() {
      try {
        return Call.class.getMethod("addEventListener", EventListener.class);
      } catch (NoSuchMethodException okHttp4) {
        return null;
      }
    }

    static void add(Call call, EventListener listener) {
      if (ADD == null) {
        throw new UnsupportedOperationException("Call.addEventListener needs OkHttp 5");
      }
      try {
        ADD.invoke(call, listener);
      } catch (IllegalAccessException | InvocationTargetException e) {
        throw new IllegalStateException("could not add an EventListener to " + call, e);
      }
    }
  }
}
