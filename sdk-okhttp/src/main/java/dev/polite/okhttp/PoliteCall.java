package dev.polite.okhttp;

import dev.polite.AsyncExchange;
import dev.polite.Exchange;
import dev.polite.Polite;
import dev.polite.Scheduler;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import kotlin.jvm.JvmClassMappingKt;
import kotlin.jvm.functions.Function0;
import kotlin.reflect.KClass;
import okhttp3.Call;
import okhttp3.Callback;
import okhttp3.EventListener;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import okio.Timeout;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A call made by {@link PoliteCallFactory}. {@code execute()} hands the request to the client,
 * whose interceptor waits as usual. {@code enqueue()} is polite's asynchronous run
 * ({@link Polite#callAsync}): the call waits for its turn as tasks on the factory's scheduler,
 * holding no thread, and each attempt goes to OkHttp's dispatcher only when its turn has come,
 * tagged so that the client's interceptor passes it on; its answer is judged as its callback
 * hears it.
 *
 * <p>Thread-safe: the callback hears exactly once, on OkHttp's dispatcher threads.
 */
final class PoliteCall implements Call {
  private static final Logger log = LoggerFactory.getLogger("dev.polite");

  /** What made it: {@link #clone()} asks it for another. */
  private final Call.Factory factory;
  private final OkHttpClient client;
  private final PoliteInterceptor interceptor;
  private final Scheduler scheduler;
  private final Request request;
  private final Timeout timeout;
  private final AtomicBoolean executed = new AtomicBoolean();
  private final AtomicBoolean heard = new AtomicBoolean();
  private final Map<Class<?>, Object> tags = new ConcurrentHashMap<>();
  private final List<EventListener> eventListeners = new CopyOnWriteArrayList<>();
  private volatile boolean canceled;

  // Guarded by this.
  private @Nullable Call inner;
  private @Nullable CompletableFuture<Response> run;
  /** The call's deadline on {@link System#nanoTime()}, from enqueue; {@link Long#MAX_VALUE} for none. */
  private long deadline = Long.MAX_VALUE;

  /**
   * A call of {@code request} made by {@code factory} (a {@link PoliteCallFactory}) over
   * {@code client}, waiting its turns on {@code scheduler}, with {@code interceptor}'s keys.
   */
  PoliteCall(Call.Factory factory, OkHttpClient client, PoliteInterceptor interceptor, Scheduler scheduler,
      Request request) {
    this.factory = factory;
    this.client = client;
    this.interceptor = interceptor;
    this.scheduler = scheduler;
    this.request = request;
    this.timeout = new Timeout().timeout(client.callTimeoutMillis(), TimeUnit.MILLISECONDS);
  }

  @Override
  public Request request() {
    return request;
  }

  @Override
  public Response execute() throws IOException {
    markExecuted();
    Call call = newInner(request);
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
    if (canceled) {
      dispatch(() -> deliver(responseCallback, null, new InterruptedIOException("Canceled")));
      return;
    }
    long left = PoliteInterceptor.timeoutLeft(timeout);
    synchronized (this) {
      deadline = left == Long.MAX_VALUE ? Long.MAX_VALUE : System.nanoTime() + left;
    }
    Thread enqueuing = Thread.currentThread();
    CompletableFuture<Response> started = interceptor.polite().callAsync(
        OkHttpRequestView.of(request), left, new Attempts(), scheduler, dispatcher());
    synchronized (this) {
      run = started;
    }
    if (canceled) {
      started.cancel(true);
    }
    started.whenComplete((response, thrown) -> {
      if (Thread.currentThread() == enqueuing || thrown instanceof CancellationException) {
        // Ended as it began (a key or cost function refused it), or cancelled on the caller's
        // thread: the callback hears on the dispatcher, as every other one does.
        dispatch(() -> deliver(responseCallback, response, thrown));
      } else {
        deliver(responseCallback, response, thrown);
      }
    });
  }

  private void markExecuted() {
    if (!executed.compareAndSet(false, true)) {
      throw new IllegalStateException("Already Executed");
    }
  }

  /** Tells the callback, once; a second answer is closed unheard. */
  private void deliver(Callback callback, @Nullable Response response, @Nullable Throwable thrown) {
    if (!heard.compareAndSet(false, true)) {
      if (response != null) {
        response.close();
      }
      return;
    }
    if (thrown != null || response == null) {
      callback.onFailure(this, failureOf(thrown));
      return;
    }
    try {
      callback.onResponse(this, response);
    } catch (IOException e) {
      log.info("polite: the callback of {} threw", this, e); // as OkHttp's own calls log it
    }
  }

  /** What the callback hears for {@code thrown}: an {@link IOException}, as OkHttp's own calls. */
  private static IOException failureOf(@Nullable Throwable thrown) {
    Throwable cause = thrown;
    while (cause instanceof CompletionException && cause.getCause() != null) {
      cause = cause.getCause();
    }
    if (cause instanceof IOException io) {
      return io;
    }
    if (cause instanceof CancellationException || cause == null) {
      return new InterruptedIOException("Canceled");
    }
    return new IOException("polite: the call failed: " + cause, cause);
  }

  /** OkHttp's dispatcher executor, where callbacks run. */
  private Executor dispatcher() {
    return this::dispatch;
  }

  private void dispatch(Runnable task) {
    try {
      client.dispatcher().executorService().execute(task);
    } catch (RejectedExecutionException shutDown) {
      task.run();
    }
  }

  /**
   * The call's attempts: each a call on the application's client, tagged, enqueued on its
   * dispatcher, with the call's time left as its timeout; its answer judged in its callback.
   */
  private final class Attempts implements AsyncExchange<Response> {
    @Override
    public CompletableFuture<Response> send(Exchange.Judge judge) {
      Call call = newInner(request.newBuilder().tag(Handoff.class, Handoff.ATTEMPT).build());
      long until;
      synchronized (PoliteCall.this) {
        inner = call;
        until = deadline;
      }
      if (until != Long.MAX_VALUE) {
        call.timeout().timeout(Math.max(1, until - System.nanoTime()), TimeUnit.NANOSECONDS);
      }
      Attempt attempt = new Attempt(call);
      call.enqueue(new Callback() {
        @Override
        public void onResponse(Call c, Response response) {
          if (attempt.isDone()) {
            response.close(); // cancelled as it came
            return;
          }
          judge.keep(OkHttpResponseView.of(response));
          if (!attempt.complete(response)) {
            response.close();
          }
        }

        @Override
        public void onFailure(Call c, IOException e) {
          attempt.completeExceptionally(e);
        }
      });
      return attempt;
    }

    @Override
    public void discard(Response response) {
      response.close();
    }
  }

  /** One attempt's answer to come; cancelling it cancels its OkHttp call. */
  private static final class Attempt extends CompletableFuture<Response> {
    private final Call call;

    Attempt(Call call) {
      this.call = call;
    }

    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
      boolean canceled = super.cancel(mayInterruptIfRunning);
      call.cancel();
      return canceled;
    }
  }

  private Call newInner(Request attempt) {
    Call call = client.newCall(attempt);
    for (EventListener listener : eventListeners) {
      EventListeners.add(call, listener);
    }
    return call;
  }

  @Override
  public void cancel() {
    canceled = true;
    Call call;
    CompletableFuture<Response> started;
    synchronized (this) {
      call = inner;
      started = run;
    }
    if (started != null) {
      started.cancel(true); // its wait ends now, and its attempt on the wire is cancelled
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
   * Where the call is now, for a test whose callback went unheard: what polite's run says of it
   * (its turn, whether a step is scheduled, what it holds at its key), and whether an attempt is
   * with OkHttp.
   */
  synchronized String whereNow() {
    Call attempt = inner;
    return "heard=" + heard.get() + " canceled=" + canceled + " run=" + run
        + " attempt=" + (attempt == null ? "none" : "executed=" + attempt.isExecuted()
            + " canceled=" + attempt.isCanceled()
            + " queued=" + client.dispatcher().queuedCalls().contains(attempt)
            + " running=" + client.dispatcher().runningCalls().contains(attempt));
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
