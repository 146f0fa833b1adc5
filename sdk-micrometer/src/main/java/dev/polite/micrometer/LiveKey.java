package dev.polite.micrometer;

import dev.polite.KeySnapshot;
import java.util.function.Supplier;

/**
 * What a tagged key's gauges read: polite's live state of the key, as {@link
 * dev.polite.PoliteListener#keyAdded} handed it over, and how each gauge turns it into a number.
 * Micrometer holds a gauge's object weakly, so whoever registers gauges on a {@code LiveKey} must
 * hold it for as long as they are registered.
 */
final class LiveKey {
  /** The newest supplier polite gave for the key: a key added again replaces it. */
  volatile Supplier<KeySnapshot> state;

  LiveKey(Supplier<KeySnapshot> state) {
    this.state = state;
  }

  /** The pace, or NaN when unpaced: +Inf would flatten every other line on a shared chart. */
  static double pace(LiveKey k) {
    return finiteOrNaN(k.state.get().pace());
  }

  static double pauseNanos(LiveKey k) {
    return k.state.get().pausedFor().toNanos();
  }

  /** The bucket, or NaN when unpaced: an unpaced key's bucket is never drawn from. */
  static double tokens(LiveKey k) {
    KeySnapshot now = k.state.get();
    return Double.isInfinite(now.pace()) ? Double.NaN : finiteOrNaN(now.tokens());
  }

  static double inFlight(LiveKey k) {
    return k.state.get().inFlight();
  }

  private static double finiteOrNaN(double value) {
    return Double.isInfinite(value) ? Double.NaN : value;
  }
}
