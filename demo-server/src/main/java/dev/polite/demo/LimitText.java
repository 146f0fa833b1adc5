package dev.polite.demo;

import java.time.Duration;

/**
 * A named limit as the command line types it, {@code NAME:LIMIT/WINDOW} ({@code search:30/1m}):
 * the shape {@code --budget} takes after its {@code PREFIX=} and {@code --second-policy} takes
 * whole. Read here once, so both refuse text that is not one alike; what each accepts as a name, a
 * limit and a window is its own record's to check.
 *
 * @param name the text before the colon, trimmed
 * @param limit the whole number between the colon and the slash
 * @param window the window after the slash, in {@link DurationText}'s syntax
 */
record LimitText(String name, long limit, Duration window) {

  /**
   * Reads {@code text} from {@code from} on as {@code NAME:LIMIT/WINDOW}.
   *
   * @param label what refusals start with, the flag as typed ({@code budget})
   * @param shape the usage's shape of the whole text, for the refusals
   * @throws IllegalArgumentException naming {@code label} and the whole text, for text that is not one
   */
  static LimitText parse(String label, String shape, String text, int from) {
    int colon = text.indexOf(':', from);
    int slash = colon < 0 ? -1 : text.indexOf('/', colon + 1);
    if (colon < 0 || slash < 0) {
      throw new IllegalArgumentException(label + ": expected " + shape + ", was '" + text + "'");
    }
    String limitText = text.substring(colon + 1, slash).trim();
    long limit;
    try {
      limit = Long.parseLong(limitText);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(label + ": '" + text + "' has no whole number for its limit ('"
          + limitText + "'); expected " + shape, e);
    }
    return new LimitText(text.substring(from, colon).trim(), limit, DurationText.parse(label, text.substring(slash + 1)));
  }
}
