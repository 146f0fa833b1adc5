package dev.polite.examples.zoo;

import dev.polite.examples.load.RunResult;
import java.util.List;
import java.util.function.Function;

/** Made-up zoo rows for tests of what is drawn and judged from them. */
final class ZooRows {
  private ZooRows() {}

  static List<ZooRow> of(ZooMatrix matrix, Function<ZooCell, ZooRow> measure) {
    return of(matrix.cells(), measure);
  }

  static List<ZooRow> of(List<ZooCell> cells, Function<ZooCell, ZooRow> measure) {
    return cells.stream().map(measure).toList();
  }

  /** A row where {@code succeeded} calls succeeded, the server refused {@code rejected}, in {@code seconds}. */
  static ZooRow result(ZooCell cell, int succeeded, long rejected, double seconds) {
    RunResult run = new RunResult(cell.client().cliName(), cell.requests(), succeeded, rejected,
        cell.requests() + rejected, rejected, cell.requests() - succeeded, 0, seconds, List.of());
    return new ZooRow(cell, run, rejected, true, cell.floorSeconds(), false);
  }
}
