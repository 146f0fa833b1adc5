package dev.polite.examples;

import java.io.PrintWriter;

/**
 * A status line rewritten in place with a carriage return, so a run of several seconds shows
 * that it is alive without scrolling the table away. Written to stderr, so that stdout stays the
 * table or the JSON a script reads.
 *
 * <p>Usage: {@code progress.update("12/30 ok"); ...; progress.clear();}
 */
public final class ProgressLine {
  private final PrintWriter err;
  private final boolean enabled;
  private int lastLength;
  private String prefix = "";

  /**
   * @param err where the line goes, normally stderr
   * @param enabled false to print nothing at all
   */
  public ProgressLine(PrintWriter err, boolean enabled) {
    this.err = err;
    this.enabled = enabled;
  }

  /**
   * A line on {@code err} only when a person is watching (a console is attached): carriage
   * returns in a log file or a test's captured output are noise.
   */
  public static ProgressLine forConsole(PrintWriter err) {
    return new ProgressLine(err, System.console() != null);
  }

  /**
   * Puts {@code prefix} before every later {@link #update}: the zoo says which cell is running
   * ({@code [12/232] token-bucket/ietf c16}) in front of the load runner's own counts.
   */
  public synchronized void prefix(String prefix) {
    this.prefix = prefix;
  }

  /** Replaces the line with the prefix and {@code text}. */
  public synchronized void update(String text) {
    if (!enabled) {
      return;
    }
    String shown = prefix + text;
    StringBuilder line = new StringBuilder("\r").append(shown);
    for (int i = shown.length(); i < lastLength; i++) {
      line.append(' ');
    }
    lastLength = shown.length();
    err.print(line);
    err.flush();
  }

  /** Blanks the line, leaving the cursor at its start. */
  public synchronized void clear() {
    if (enabled && lastLength > 0) {
      err.print("\r" + " ".repeat(lastLength) + "\r");
      err.flush();
      lastLength = 0;
    }
  }
}
