package dev.polite;

import dev.polite.internal.call.Acquisition;
import dev.polite.internal.call.KeyState;
import dev.polite.internal.Nanos;
import dev.polite.internal.call.Patience;
import dev.polite.internal.model.Permit;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import org.jspecify.annotations.Nullable;

/**
 * A call that holds no thread while it waits ({@link Polite#callAsync}): it walks its key's
 * {@linkplain KeyState#step steps} instead of blocking. Each step either wins the permit (and the
 * attempt goes to the engine's {@link AsyncExchange}), or names the time of the next step (a task
 * on the scheduler), or waits for the key's signal (a callback the key runs when an answer opens
 * its gate). Between steps no thread is held. What follows an attempt is the {@link CallRun}'s
 * decision, as on the blocking path.
 *
 * <h2>Turns</h2>
 * Every scheduled task and gate callback carries the turn it was made in; a new step, a send or
 * a cancel starts a new turn, so a late task or a second wake-up of the same turn does nothing.
 *
 * <h2>Threads</h2>
 * Steps run on the thread that started the call, then on the scheduler's. An attempt's outcome
 * is handled on the thread the engine completed it on, and the call's future completes there;
 * an outcome the engine completed on the sending thread itself (at once, as {@code send}
 * returned) is handed to the executor first, and so is every end that no attempt brought (a call
 * refused or cancelled while it waits): the caller's code never runs on the scheduler's one
 * thread.
 *
 * <p>Thread-safe: steps, outcomes and cancellation meet under this run's lock (taken before a
 * key's, never after), and the future completes exactly once. The {@link CallRun}'s decisions
 * around an attempt are taken under the run's own lock: a cancel completes the attempt's future
 * on the cancelling thread while the engine may still be judging its answer on another.
 */
final class AsyncRun<R> {
  private static final long NOT_WAITING = Long.MIN_VALUE;

  private final CallRun run;
  private final AsyncExchange<R> exchange;
  private final Scheduler scheduler;
  private final Executor executor;
  private final Ticker ticker;
  private final Outcome outcome = new Outcome();
  private final Exchange.Judge judge;
  private volatile boolean canceled;

  // Guarded by this.
  private @Nullable Acquisition acquisition;
  private Scheduler.@Nullable Scheduled scheduled;
  private long waitingSince = NOT_WAITING;
  private boolean onTheWire;
  private @Nullable CompletableFuture<R> wire;
  private int turn;

  AsyncRun(Polite polite, CallContext call, long deadline, AsyncExchange<R> exchange,
      Scheduler scheduler, Executor executor) {
    CallRun run = new CallRun(polite, call, () -> canceled, deadline);
    this.run = run;
    this.judge = response -> {
      synchronized (run) {
        return run.keep(response);
      }
    };
    this.exchange = exchange;
    this.scheduler = scheduler;
    this.executor = executor;
    this.ticker = polite.config().ticker();
  }

  /**
   * Takes the first step on the calling thread, once the load shedder let the call go; the future
   * is the call's.
   */
  CompletableFuture<R> start() {
    LoadShedder shedder = run.config().loadShedder();
    if (shedder != LoadShedder.none()) {
      LoadShedder.Admitted admitted;
      try {
        admitted = shedder.admit(run.call());
      } catch (IOException dropped) {
        return CompletableFuture.failedFuture(dropped);
      }
      outcome.whenComplete((answer, thrown) -> CallRun.ended(admitted,
          thrown == null ? run.lastAnswer() : null,
          thrown instanceof CancellationException || canceled));
    }
    step(0);
    return outcome;
  }

  /** One step towards the next attempt's permit, in turn {@code ofTurn}. */
  private void step(int ofTurn) {
    IOException failure;
    KeyState sendThrough = null;
    Permit granted = null;
    synchronized (this) {
      if (ofTurn != turn || outcome.isDone()) {
        return; // a late task, or the other of a wake-up and its time-out
      }
      KeyState key = run.state();
      Patience patience = run.patience();
      if (canceled) {
        failure = new InterruptedIOException("Canceled");
      } else {
        long now = ticker.read();
        if (waitingSince != NOT_WAITING) {
          patience.waited(waitingSince, now);
          waitingSince = NOT_WAITING;
        }
        int next = ++turn;
        if (scheduled != null) {
          scheduled.cancel(); // the time-out of a gate wait that a signal ended; no-op if it is this
          scheduled = null;
        }
        if (run.observing()) {
          granted = key.observe(run.call(), patience);
          if (granted == null) {
            run.restate(); // forgotten as the call came: step on the key's state now
            scheduled = scheduler.runAt(now, () -> step(next));
            return;
          }
          sendThrough = key;
          onTheWire = true;
          failure = null;
        } else {
          if (acquisition == null) {
            acquisition = new Acquisition(run.call(), patience.waited());
          }
          try {
            long wait = key.step(acquisition, patience, now, () -> wake(next));
            Permit permit = acquisition.permit();
            if (wait == KeyState.RETIRED || permit != null) {
              acquisition = null;
              // Forgotten while this call held it, or, while it waited, an answer showed the route
              // spends another budget: step on the state the call's budget has now.
              if (run.movedAfter(permit, key)) {
                scheduled = scheduler.runAt(now, () -> step(next));
                return;
              }
              sendThrough = key;
              granted = Objects.requireNonNull(permit);
              onTheWire = true;
              failure = null;
            } else {
              waitingSince = now;
              // At the gate, the wait ends with the key's signal, or with the call's patience.
              long until = Nanos.add(now, wait == KeyState.AWAIT_SIGNAL ? patience.left(now) : wait);
              scheduled = scheduler.runAt(until, () -> step(next));
              return;
            }
          } catch (RateLimitedException tooLong) {
            acquisition = null; // the key released it
            failure = tooLong;
          }
        }
      }
    }
    if (sendThrough != null) {
      send(sendThrough, Objects.requireNonNull(granted));
    } else {
      failSoon(Objects.requireNonNull(failure));
    }
  }

  /** The key's gate may have opened: step again soon. Runs under the key's lock: hand on only. */
  private void wake(int ofTurn) {
    scheduler.runAt(ticker.read(), () -> step(ofTurn));
  }

  /** Hands the attempt to the engine, outside this run's lock. */
  private void send(KeyState through, Permit permit) {
    synchronized (run) {
      run.sending(through, permit);
    }
    Thread sender = Thread.currentThread();
    CompletableFuture<R> attempt;
    try {
      attempt = Objects.requireNonNull(exchange.send(judge), "the engine's attempt");
    } catch (RuntimeException | Error thrown) {
      // The engine's or the application's code threw as the attempt was handed over (an OkHttp
      // EventListener's callStart runs inside enqueue): the permit goes back and the call fails,
      // or its future would never complete.
      synchronized (run) {
        run.sendFailed();
      }
      synchronized (this) {
        onTheWire = false;
      }
      failSoon(new IOException("polite: the attempt could not be sent: " + thrown, thrown));
      return;
    }
    synchronized (this) {
      wire = attempt;
    }
    if (canceled) {
      attempt.cancel(true);
    }
    attempt.whenComplete((response, thrown) -> {
      if (Thread.currentThread() == sender) {
        // Completed as it was sent: on the scheduler's thread (or the caller's), where the
        // caller's code must not run.
        handOn(() -> afterAttempt(response, thrown));
      } else {
        afterAttempt(response, thrown);
      }
    });
  }

  /** What an attempt came back with: the call's end, or its next attempt's wait. */
  private void afterAttempt(@Nullable R response, @Nullable Throwable thrown) {
    long after;
    IOException failure = null;
    R answer = null;
    try {
      if (thrown != null || response == null) {
        synchronized (run) {
          after = run.afterFailure(ioFailure(thrown));
        }
      } else {
        synchronized (run) {
          after = run.afterAnswer();
        }
        if (after == CallRun.RETURN) {
          answer = response;
        } else {
          exchange.discard(response);
        }
      }
    } catch (IOException e) {
      if (response != null) {
        exchange.discard(response);
      }
      failure = e;
      after = CallRun.RETURN;
    } catch (RuntimeException | Error e) {
      if (response != null) {
        exchange.discard(response);
      }
      failure = new IOException("polite: " + run.call() + " failed after its answer: " + e, e);
      after = CallRun.RETURN;
    }
    synchronized (this) {
      onTheWire = false;
      wire = null;
      if (!outcome.isDone() && !canceled && after != CallRun.RETURN) {
        waitingSince = run.attemptAt();
        int retryTurn = ++turn;
        scheduled = scheduler.runAt(Nanos.add(run.attemptAt(), after), () -> step(retryTurn));
        return;
      }
    }
    if (answer != null) {
      if (!outcome.complete(answer)) {
        exchange.discard(answer); // cancelled meanwhile: nobody will read it
      }
    } else if (failure != null) {
      outcome.completeExceptionally(failure);
    } else {
      outcome.completeExceptionally(new InterruptedIOException("Canceled"));
    }
  }

  /** The engine's failure as an {@link IOException}, as the run judges failures. */
  private static IOException ioFailure(@Nullable Throwable thrown) {
    Throwable cause = thrown;
    while (cause instanceof CompletionException && cause.getCause() != null) {
      cause = cause.getCause();
    }
    if (cause instanceof IOException io) {
      return io;
    }
    if (cause instanceof CancellationException) {
      return new InterruptedIOException("Canceled");
    }
    if (cause == null) {
      return new IOException("polite: the engine completed an attempt with no answer");
    }
    return new IOException("polite: the attempt failed: " + cause, cause);
  }

  /** Ends the call with {@code failure}, completed on the executor. */
  private void failSoon(IOException failure) {
    handOn(() -> outcome.completeExceptionally(failure));
  }

  private void handOn(Runnable task) {
    try {
      executor.execute(task);
    } catch (RejectedExecutionException shutDown) {
      task.run();
    }
  }

  /**
   * The caller gave the call up: its place, its reservation and its pending step go at once, and
   * an attempt on the wire is cancelled (its answer, if one still comes, is discarded).
   */
  private void cancel() {
    canceled = true;
    CompletableFuture<R> attempt;
    synchronized (this) {
      turn++; // void the pending step and any wake-up
      if (scheduled != null) {
        scheduled.cancel();
        scheduled = null;
      }
      if (acquisition != null) {
        run.state().abandon(acquisition);
        acquisition = null;
      }
      attempt = wire;
    }
    if (attempt != null) {
      attempt.cancel(true);
    }
  }

  /**
   * Where the call is now, for a test whose future never completed: its turn, whether a step is
   * scheduled, what it holds at its key, whether an attempt is with the engine.
   */
  synchronized String whereNow() {
    KeyState key = run.state();
    return "turn=" + turn + " done=" + outcome.isDone() + " canceled=" + canceled
        + " onTheWire=" + onTheWire + " scheduled=" + (scheduled != null)
        + " waiting=" + (waitingSince != NOT_WAITING)
        + " acquisition=" + (acquisition == null ? "none" : key.describe(acquisition));
  }

  @Override
  public String toString() {
    return "AsyncRun{" + run.call() + '}';
  }

  /** The call's future: cancelling it gives the call up. */
  private final class Outcome extends CompletableFuture<R> {
    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
      boolean canceledNow = super.cancel(mayInterruptIfRunning);
      AsyncRun.this.cancel();
      return canceledNow;
    }

    @Override
    public String toString() {
      return super.toString() + " " + AsyncRun.this.whereNow();
    }
  }
}
