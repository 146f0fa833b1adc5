package dev.polite.internal;

import dev.polite.GiveUpReason;
import dev.polite.PoliteListener;
import dev.polite.RateLimitSignals;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Wraps a user's listener so that nothing it throws can fail a call: a listener is for hearing,
 * and a bug in it must not turn into an outage of the calls it hears about.
 */
public final class SafeListener implements PoliteListener {
  private static final Logger log = LoggerFactory.getLogger("dev.polite");

  private final PoliteListener delegate;
  private final AtomicBoolean warned = new AtomicBoolean();

  private SafeListener(PoliteListener delegate) {
    this.delegate = delegate;
  }

  /** {@code listener}, made safe. */
  public static PoliteListener of(PoliteListener listener) {
    return listener instanceof SafeListener || listener == PoliteListener.none()
        ? listener : new SafeListener(listener);
  }

  @Override
  public void paced(String key, Duration wait) {
    safely(() -> delegate.paced(key, wait));
  }

  @Override
  public void policyLearned(String key, double rate, double burst, RateLimitSignals signals) {
    safely(() -> delegate.policyLearned(key, rate, burst, signals));
  }

  @Override
  public void rateLimited(String key, RateLimitSignals signals) {
    safely(() -> delegate.rateLimited(key, signals));
  }

  @Override
  public void paused(String key, Duration pause) {
    safely(() -> delegate.paused(key, pause));
  }

  @Override
  public void resumed(String key) {
    safely(() -> delegate.resumed(key));
  }

  @Override
  public void retryScheduled(String key, int attempt, Duration delay) {
    safely(() -> delegate.retryScheduled(key, attempt, delay));
  }

  @Override
  public void gaveUp(String key, GiveUpReason reason, Duration requestedDelay) {
    safely(() -> delegate.gaveUp(key, reason, requestedDelay));
  }

  /**
   * Runs one event. The first throw is logged with its stack trace, which is what its author
   * needs; later ones only at DEBUG, since a listener that throws on every event would otherwise
   * flood the log of every call.
   */
  private void safely(Runnable event) {
    try {
      event.run();
    } catch (RuntimeException e) {
      if (!warned.getAndSet(true)) {
        log.warn("polite: a PoliteListener threw; ignoring it (later throws are logged at DEBUG)", e);
      } else if (log.isDebugEnabled()) {
        log.debug("polite: a PoliteListener threw again; ignoring it", e);
      }
    }
  }
}
