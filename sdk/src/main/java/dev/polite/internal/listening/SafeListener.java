package dev.polite.internal.listening;

import dev.polite.CallContext;
import dev.polite.GiveUpReason;
import dev.polite.KeySnapshot;
import dev.polite.PoliteListener;
import dev.polite.RateLimitSignals;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The user's listeners, each heard in turn and each guarded, so that nothing one throws can fail
 * a call or keep the others from hearing: a listener is for hearing, and a bug in it must not
 * turn into an outage of the calls it hears about.
 *
 * <p>Thread-safe when the listeners are.
 */
public final class SafeListener implements PoliteListener {
  private static final Logger log = LoggerFactory.getLogger("dev.polite");

  private final PoliteListener[] listeners;
  private final AtomicBoolean[] warned;

  private SafeListener(List<PoliteListener> listeners) {
    this.listeners = listeners.toArray(PoliteListener[]::new);
    this.warned = new AtomicBoolean[this.listeners.length];
    for (int i = 0; i < warned.length; i++) {
      warned[i] = new AtomicBoolean();
    }
  }

  /** {@code listeners}, heard in order and made safe; {@link PoliteListener#none()} for none. */
  public static PoliteListener of(List<PoliteListener> listeners) {
    return listeners.isEmpty() ? PoliteListener.none() : new SafeListener(List.copyOf(listeners));
  }

  @Override
  public void sending(CallContext call, Duration waited) {
    each(l -> l.sending(call, waited));
  }

  @Override
  public void policyLearned(String key, double rate, double burst, RateLimitSignals signals) {
    each(l -> l.policyLearned(key, rate, burst, signals));
  }

  @Override
  public void rateLimited(CallContext call, RateLimitSignals signals) {
    each(l -> l.rateLimited(call, signals));
  }

  @Override
  public void paused(String key, Duration pause) {
    each(l -> l.paused(key, pause));
  }

  @Override
  public void resumed(String key) {
    each(l -> l.resumed(key));
  }

  @Override
  public void refusesEverything(String key, int refusals, Duration probeIn) {
    each(l -> l.refusesEverything(key, refusals, probeIn));
  }

  @Override
  public void retryScheduled(CallContext call, int attempt, Duration delay) {
    each(l -> l.retryScheduled(call, attempt, delay));
  }

  @Override
  public void gaveUp(CallContext call, GiveUpReason reason, Duration requestedDelay) {
    each(l -> l.gaveUp(call, reason, requestedDelay));
  }

  @Override
  public void wouldWait(CallContext call, Duration wait) {
    each(l -> l.wouldWait(call, wait));
  }

  @Override
  public void wouldRetry(CallContext call, int attempt, Duration delay) {
    each(l -> l.wouldRetry(call, attempt, delay));
  }

  @Override
  public void wouldGiveUp(CallContext call, GiveUpReason reason, Duration requestedDelay) {
    each(l -> l.wouldGiveUp(call, reason, requestedDelay));
  }

  @Override
  public void keyAdded(String key, Supplier<KeySnapshot> state) {
    each(l -> l.keyAdded(key, state));
  }

  @Override
  public void keyForgotten(String key) {
    each(l -> l.keyForgotten(key));
  }

  /**
   * Runs one event on every listener. A listener's first throw is logged with its stack trace,
   * which is what its author needs; later ones only at DEBUG, since a listener that throws on
   * every event would otherwise flood the log of every call.
   */
  private void each(Consumer<PoliteListener> event) {
    for (int i = 0; i < listeners.length; i++) {
      try {
        event.accept(listeners[i]);
      } catch (RuntimeException e) {
        if (!warned[i].getAndSet(true)) {
          log.warn("polite: a PoliteListener ({}) threw; ignoring it (later throws are logged at "
              + "DEBUG)", listeners[i].getClass().getName(), e);
        } else if (log.isDebugEnabled()) {
          log.debug("polite: a PoliteListener threw again; ignoring it", e);
        }
      }
    }
  }
}
