package dev.polite.testing;

import dev.polite.Polite;
import dev.polite.internal.call.KeyStates;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;

/**
 * What tests of other modules (an engine's adapter, the fuzz that drives it) read of a
 * {@link Polite}'s insides: its keys. In the core's test jar, never in the library; reflective,
 * since the tests that use it live in other packages (and their modules) than {@code Polite}.
 */
public final class PoliteInternals {
  private static final Method KEYS;

  static {
    try {
      KEYS = Polite.class.getDeclaredMethod("keys");
      KEYS.setAccessible(true);
    } catch (NoSuchMethodException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private PoliteInternals() {}

  /** The keys {@code polite} holds. */
  public static KeyStates keys(Polite polite) {
    try {
      return (KeyStates) KEYS.invoke(polite);
    } catch (IllegalAccessException | InvocationTargetException e) {
      throw new IllegalStateException("Polite.keys() could not be read", e);
    }
  }
}
