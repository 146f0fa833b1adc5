package dev.polite.testing;

import dev.polite.HeaderLines;
import dev.polite.RateLimitSignals;
import dev.polite.internal.headers.SignalsReader;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;

/**
 * The standard parser without its guard, for tests outside its package: a parser bug throws here,
 * where {@link SignalsReader#parse} would turn it into "no signal" and hide it. Reflective, since
 * the tests that use it live in other modules.
 */
public final class UnguardedParser {
  private static final Method UNGUARDED;

  static {
    try {
      UNGUARDED = SignalsReader.class.getDeclaredMethod("readUnguarded", int.class,
          HeaderLines.class, long.class);
      UNGUARDED.setAccessible(true);
    } catch (NoSuchMethodException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private UnguardedParser() {}

  /** {@link SignalsReader#parse}, letting a bug's exception through. */
  public static RateLimitSignals parse(int status, HeaderLines headers, long nowEpochMillis) {
    try {
      return (RateLimitSignals) UNGUARDED.invoke(SignalsReader.standard(), status, headers,
          nowEpochMillis);
    } catch (IllegalAccessException e) {
      throw new IllegalStateException(e);
    } catch (InvocationTargetException e) {
      if (e.getCause() instanceof RuntimeException bug) {
        throw bug;
      }
      if (e.getCause() instanceof Error error) {
        throw error;
      }
      throw new IllegalStateException(e.getCause());
    }
  }
}
