package dev.polite.demo;

import java.util.Locale;

/**
 * What the server decides while its shared store (Redis) does not answer. The choice is made
 * inside the request, within the store timeout, and the transition is logged once each way.
 *
 * <p>Usage: {@code DemoServer.builder().store("redis://127.0.0.1:6379").whenDown(WhenDown.LOCAL).nodes(4)}.
 */
public enum WhenDown {
  /** Admit everything: the API stays up, unprotected. */
  OPEN,
  /** Reject everything (429): for limits that protect money or security. */
  CLOSED,
  /** Enforce this node's share (limit ÷ nodes) from memory until the store returns. */
  LOCAL;

  /** The command-line name: {@code open}, {@code closed} or {@code local}. */
  public String cliName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * Parses {@code open}, {@code closed} or {@code local}, in any case.
   *
   * @throws IllegalArgumentException naming the accepted values
   */
  public static WhenDown parse(String text) {
    try {
      return valueOf(text.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "whenDown: unknown value '" + text + "', expected one of open|closed|local", e);
    }
  }

  @Override
  public String toString() {
    return cliName();
  }
}
