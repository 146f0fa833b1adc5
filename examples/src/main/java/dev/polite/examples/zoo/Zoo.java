package dev.polite.examples.zoo;

import dev.polite.examples.ProgressLine;
import dev.polite.examples.clients.ClientKind;
import dev.polite.examples.load.LoadRunner;
import dev.polite.examples.load.RunResult;
import dev.polite.examples.load.UnreachableException;
import dev.polite.examples.load.WarmUp;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import okhttp3.ConnectionPool;
import okhttp3.OkHttpClient;
import org.jspecify.annotations.Nullable;

/**
 * Runs zoo cells one after another, never two at once, so that every cell has the machine to
 * itself and its time is honest. Each cell gets a fresh limiter, a fresh client (its own
 * connection pool and fresh interceptors, or a fresh JDK client, through {@link LoadRunner}) and a
 * time limit ({@link Cut}: six floors, at least 20 s), past which the
 * runner is {@link LoadRunner#cut() cut}: its unfinished calls are cancelled and count as lost.
 * One stuck cell (a client waiting out a date a minute ahead, say) must not stall the zoo or CI.
 * The {@code zoo} command and its CI test both run cells through here.
 *
 * <p>Usage: {@code List<ZooRow> rows = new Zoo(new OkHttpClient()).run(matrix.cells(), row -> {}, null);}
 */
final class Zoo {
  private final OkHttpClient base;
  private final boolean async;

  /** @param base the client every cell's client derives from (its own pool is replaced per cell) */
  public Zoo(OkHttpClient base) {
    this(base, false);
  }

  /**
   * @param base as above
   * @param async whether polite's clients make their calls without a thread each ({@code enqueue}
   *     through a {@link dev.polite.okhttp.PoliteCallFactory}, or the JDK client's
   *     {@code sendAsync}); the peers always block
   */
  public Zoo(OkHttpClient base, boolean async) {
    this.base = base;
    this.async = async;
  }

  /**
   * Warms every client up once, then runs {@code cells} in order, handing each row to
   * {@code each} as it completes.
   *
   * @param progress a live line, or null for none
   * @throws IOException if a limiter cannot be started or stops answering altogether
   */
  public List<ZooRow> run(List<ZooCell> cells, Consumer<ZooRow> each, @Nullable ProgressLine progress)
      throws IOException, InterruptedException {
    LinkedHashSet<ClientKind> kinds = new LinkedHashSet<>();
    for (ZooCell cell : cells) {
      kinds.add(cell.client());
    }
    WarmUp.clients(base, List.copyOf(kinds), ZooMatrix.LIMIT * 0.9, ZooMatrix.BURST);
    List<ZooRow> rows = new ArrayList<>(cells.size());
    ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(runnable -> {
      Thread thread = new Thread(runnable, "zoo-cell-deadline");
      thread.setDaemon(true);
      return thread;
    });
    try {
      for (int i = 0; i < cells.size(); i++) {
        ZooCell cell = cells.get(i);
        if (progress != null) {
          progress.prefix(String.format(Locale.ROOT, "[%d/%d] %s c%d", i + 1, cells.size(),
              cell.server().name(), cell.concurrency()));
        }
        ZooRow row = run(cell, timer, progress);
        rows.add(row);
        each.accept(row);
      }
    } finally {
      timer.shutdownNow();
      if (progress != null) {
        progress.prefix("");
      }
    }
    return rows;
  }

  private ZooRow run(ZooCell cell, ScheduledExecutorService timer, @Nullable ProgressLine progress)
      throws IOException, InterruptedException {
    double floor = cell.floorSeconds();
    ConnectionPool pool = new ConnectionPool();
    OkHttpClient client = base.newBuilder().connectionPool(pool).build();
    LoadRunner runner = new LoadRunner(client, cell.client(), cell.toldRate(), cell.toldBurst());
    long cutMillis = Cut.millis(floor);
    try (ZooServer.Running server = cell.server().start()) {
      ScheduledFuture<?> cut = timer.schedule(runner::cut, cutMillis, TimeUnit.MILLISECONDS);
      RunResult result;
      try {
        result = runner.run(server.urls(), cell.requests(), cell.concurrency(), progress,
            async && cell.client().hasAsync());
      } catch (UnreachableException e) {
        throw new IOException(cell + ": " + e.getMessage(), e);
      } finally {
        cut.cancel(false);
        pool.evictAll();
      }
      OptionalLong counted = server.rejected();
      return new ZooRow(cell, result, counted.orElse(result.rejected()), counted.isPresent(), floor,
          runner.wasCut());
    }
  }
}
