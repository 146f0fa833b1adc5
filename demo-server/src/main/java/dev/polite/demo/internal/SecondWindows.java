package dev.polite.demo.internal;

import dev.polite.demo.SecondPolicy;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The second policy of {@code --second-policy}: a fixed window per key that every call must also
 * pass, beside the main limiter, deciding both together so that a call is admitted only when both
 * admit it and a refused call spends neither.
 *
 * <p>For each call, under its key's window's lock: the window is asked first without counting
 * ({@link FixedWindow#peek}); a full window refuses, and the main limiter is never asked, so it
 * spends nothing. Otherwise the main limiter decides; only if it admits the call does the window
 * count it. The order matters: the main limiter cannot take back what it spent (a window or a
 * queue has no refund), the window can simply not count. The lock is held across the main
 * limiter's decision, which is why the memory store, which decides in well under a microsecond, is
 * the one this runs beside ({@link dev.polite.demo.DemoServerConfig.Builder#build()} refuses the
 * others).
 *
 * <p>The windows live in a bounded {@link KeyTable}; a key idle for twice the window holds a count
 * a fresh key would, so forgetting it changes nothing.
 */
public final class SecondWindows {
  /**
   * What both policies said of one call.
   *
   * @param main the main limiter's decision, or null when the second policy refused first and the
   *     main limiter was not asked
   * @param second the second policy's: what it counted (admitted), or what it holds now (refused by
   *     either)
   */
  public record Both(@Nullable Decision main, Decision second) {
    /** The decision that binds: the main limiter's when it was asked, else the second policy's refusal. */
    public Decision binding() {
      return main != null ? main : second;
    }
  }

  private final KeyTable<FixedWindow> windows;

  /** The windows of {@code policy}, at most {@code maxKeys} of them. */
  public SecondWindows(SecondPolicy policy, int maxKeys) {
    Policy window = new Policy(policy.limit(), policy.window().toNanos(), policy.limit());
    this.windows = new KeyTable<>(maxKeys, window.idleNanos(), () -> new FixedWindow(window));
  }

  /**
   * Decides one call of {@code cost} units (at least 1) for {@code key} at {@code nowNanos} under
   * both policies; {@code main} asks the main limiter, at most once.
   */
  public Both decide(String key, long cost, long nowNanos, Supplier<Decision> main) {
    FixedWindow window = windows.get(key, nowNanos);
    synchronized (window) {
      Decision room = window.peek(nowNanos, cost);
      if (!room.allowed()) {
        return new Both(null, room);
      }
      Decision decided = main.get();
      return new Both(decided, decided.allowed() ? window.tryAcquire(nowNanos, cost) : room);
    }
  }
}
