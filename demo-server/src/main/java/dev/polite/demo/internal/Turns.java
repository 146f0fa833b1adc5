package dev.polite.demo.internal;

import io.netty.channel.EventLoopGroup;
import io.netty.util.concurrent.EventExecutor;
import java.util.ArrayDeque;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One I/O loop's queue of connections that have requests to serve. They are served in the order
 * their bytes arrived, at most {@value #PER_PASS} in each pass of the loop, and between two passes
 * the loop does its I/O: it registers the connections the accept loop has handed it and reads
 * what has arrived. So a request that arrives behind a backlog is read within a pass or two, not
 * after the whole backlog has been served, and {@link ReadGate} can let a {@code /health} request
 * past the queue the moment it is read.
 *
 * <p>Why: Netty serves a read where it happens. A loop that 500 connections reached at once
 * served them one after another in arrival order, and a monitor's {@code /health}, the 501st,
 * waited for all 500 (the README's "A fresh server's first burst").
 *
 * <p>How it yields: the next slice is scheduled with no delay rather than run as a task. A loop
 * moves its due scheduled tasks to its task queue once per pass, before it runs the queue, so a
 * slice scheduled from inside a slice waits for the loop's next look at its sockets (which does
 * not block, since a task is due).
 *
 * <p>Why {@value #PER_PASS}: it bounds what a {@code /health} that arrives while a slice is under
 * way waits for (that slice, then it is read and answered in the next pass), and it is as many
 * reads as Netty makes from one socket per pass. Smaller slices buy little: each pass costs the
 * loop a system call that finds nothing to read when the backlog is all read already.
 *
 * <p>Confined to its loop's thread.
 *
 * <p>Usage: {@code Map<EventExecutor, Turns> turns = Turns.forEach(loops); turns.get(channel.eventLoop()).take(serve);}
 */
final class Turns {
  private static final Logger log = LoggerFactory.getLogger(Turns.class);
  static final int PER_PASS = 16;

  private final EventExecutor loop;
  private final ArrayDeque<Runnable> waiting = new ArrayDeque<>();
  private final Runnable slice = this::slice;
  private boolean due;

  Turns(EventExecutor loop) {
    this.loop = loop;
  }

  /** A queue for each of {@code loops}, for the connections each one serves. */
  static Map<EventExecutor, Turns> forEach(EventLoopGroup loops) {
    Map<EventExecutor, Turns> turns = new IdentityHashMap<>();
    for (EventExecutor loop : loops) {
      turns.put(loop, new Turns(loop));
    }
    return Map.copyOf(turns);
  }

  /** Queues {@code turn}: it runs on this loop after the turns queued before it, and after the loop's next I/O. */
  void take(Runnable turn) {
    waiting.add(turn);
    if (!due) {
      due = true;
      loop.schedule(slice, 0, TimeUnit.NANOSECONDS);
    }
  }

  private void slice() {
    due = false;
    for (int i = 0; i < PER_PASS; i++) {
      Runnable turn = waiting.poll();
      if (turn == null) {
        return;
      }
      try {
        turn.run();
      } catch (RuntimeException e) {
        log.warn("a connection's turn failed", e);
      }
    }
    if (!waiting.isEmpty()) {
      due = true;
      loop.schedule(slice, 0, TimeUnit.NANOSECONDS);
    }
  }
}
