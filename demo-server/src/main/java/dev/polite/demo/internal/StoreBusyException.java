package dev.polite.demo.internal;

/**
 * A store could not decide, and not because its Redis failed: every pooled connection stayed in
 * use for the whole bounded wait (a flood), or the client failed on its side. The request is
 * answered 503 with {@code Retry-After: 1}, neither admitted nor refused: only Redis's own failure
 * switches a store to {@code --when-down}, so a flood can never turn "fail open" into "admit all".
 */
public final class StoreBusyException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public StoreBusyException(String message, Throwable cause) {
    super(message, cause);
  }
}
