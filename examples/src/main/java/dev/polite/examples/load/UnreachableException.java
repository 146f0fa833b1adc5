package dev.polite.examples.load;

/**
 * The server could not be reached at all (refused, unknown host, no route, connect timeout). It
 * ends a run with one line for the user instead of N identical stack traces: when the server is
 * not there, counting rejections means nothing.
 *
 * <p>Usage: {@code catch (UnreachableException e) { err.println("error: " + e.getMessage()); }}
 */
public final class UnreachableException extends Exception {
  private static final long serialVersionUID = 1L;

  /** @param url the URL that could not be reached; {@code cause} says why */
  public UnreachableException(String url, Throwable cause) {
    super("cannot reach " + url + ": " + describe(cause), cause);
  }

  private static String describe(Throwable cause) {
    String message = cause.getMessage();
    return cause.getClass().getSimpleName() + (message == null ? "" : " (" + message + ")");
  }
}
