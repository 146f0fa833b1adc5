package dev.polite.internal.listening;

import static org.assertj.core.api.Assertions.assertThat;

import dev.polite.PoliteListener;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every event reaches the user's listeners through {@link SafeListener}: an event it did not
 * override would fall to the interface's default, which does nothing, and no listener would
 * ever hear it.
 */
class SafeListenerTest {
  @Test
  void everyEventOfTheListenerIsForwarded() {
    List<String> notForwarded = new ArrayList<>();
    for (Method event : PoliteListener.class.getMethods()) {
      if (Modifier.isStatic(event.getModifiers())) {
        continue;
      }
      try {
        SafeListener.class.getDeclaredMethod(event.getName(), event.getParameterTypes());
      } catch (NoSuchMethodException e) {
        notForwarded.add(event.getName());
      }
    }
    assertThat(notForwarded).isEmpty();
  }
}
