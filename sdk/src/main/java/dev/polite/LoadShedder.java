package dev.polite;

import java.io.IOException;
import org.jspecify.annotations.Nullable;

/**
 * Sheds load on the client, before polite waits: it decides, for each call, whether the call goes
 * at all, and hears how each call it let go ended. sdk-adaptive's {@code AdaptiveThrottle}
 * (Google SRE's client-side throttling) is one. polite asks it once per call, on every engine,
 * ahead of the key's pause and pace, so a call it drops never waits; and tells it the call's end
 * once, by the call's final answer, after every retry polite made.
 *
 * <pre>{@code
 * PoliteHttpClient.builder(HttpClient.newHttpClient()).loadShedder(AdaptiveThrottle.create()).build()
 * }</pre>
 *
 * <p>Implementations are thread-safe and quick: they run on every call.
 */
public interface LoadShedder {
  /**
   * Lets {@code call} go, answering what hears how it ends; or throws the {@link IOException} its
   * caller gets instead, without a wait and without a request sent.
   */
  Admitted admit(CallContext call) throws IOException;

  /** How one admitted call ended, heard once. */
  @FunctionalInterface
  interface Admitted {
    /**
     * The call ended: with {@code answer}, the one its caller gets (whatever its status), or with
     * none (null: a failure, polite refusing to wait, or the caller giving up). {@code silent}
     * when that end says nothing of the server: the caller cancelled, or something on this side
     * broke.
     */
    void ended(@Nullable ResponseView answer, boolean silent);
  }

  /** Sheds nothing: every call goes. The default. */
  static LoadShedder none() {
    return NoShedding.INSTANCE;
  }
}

/** {@link LoadShedder#none()}: admits every call, hears nothing. */
enum NoShedding implements LoadShedder, LoadShedder.Admitted {
  INSTANCE;

  @Override
  public Admitted admit(CallContext call) {
    return this;
  }

  @Override
  public void ended(@Nullable ResponseView answer, boolean silent) {}

  @Override
  public String toString() {
    return "LoadShedder.none()";
  }
}
