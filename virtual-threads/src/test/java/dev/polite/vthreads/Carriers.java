package dev.polite.vthreads;

import java.lang.management.ManagementFactory;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * Counts the platform threads that carry virtual threads, sampled while a run lasts, and keeps
 * the most seen. The scheduler starts carriers up to its parallelism (the cores) and adds more
 * only to make up for a carrier that a pinned virtual thread holds in a blocking call
 * (compensation, up to 256); so a count above the cores says some wait blocked its carrier.
 *
 * <p>A carrier is a thread of class {@code jdk.internal.misc.CarrierThread} (so on any JDK 21+,
 * whatever the pool's name); on JDK 24 and later the scheduler's MXBean's pool size is read too,
 * and the larger of the two kept. Sampled every {@value #SAMPLE_MILLIS} ms from a platform
 * thread of its own: a compensating carrier lives until it has been idle 30 s (the scheduler's
 * keep-alive), so one added even briefly is still there at the next sample.
 */
final class Carriers implements AutoCloseable {
  private static final long SAMPLE_MILLIS = 10;
  private static final String CARRIER_CLASS = "jdk.internal.misc.CarrierThread";

  private final ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor(run -> {
    Thread thread = new Thread(run, "carrier-sampler");
    thread.setDaemon(true);
    return thread;
  });
  private final AtomicInteger mostCarriers = new AtomicInteger();
  private final AtomicInteger mostPlatformThreads = new AtomicInteger();
  private final MBeanServer server = ManagementFactory.getPlatformMBeanServer();
  private final ObjectName scheduler;

  private Carriers() {
    ObjectName name;
    try {
      name = new ObjectName("jdk.management:type=VirtualThreadScheduler");
    } catch (JMException e) {
      throw new IllegalStateException(e);
    }
    this.scheduler = server.isRegistered(name) ? name : null;
  }

  /** Starts sampling at once. */
  static Carriers count() {
    Carriers carriers = new Carriers();
    carriers.sampler.scheduleAtFixedRate(carriers::sample, 0, SAMPLE_MILLIS, TimeUnit.MILLISECONDS);
    return carriers;
  }

  private void sample() {
    int carriers = 0;
    int platform = 0;
    for (Thread thread : Thread.getAllStackTraces().keySet()) { // platform threads only
      platform++;
      if (thread.getClass().getName().equals(CARRIER_CLASS)) {
        carriers++;
      }
    }
    if (scheduler != null) {
      try {
        carriers = Math.max(carriers, (Integer) server.getAttribute(scheduler, "PoolSize"));
      } catch (JMException e) {
        throw new IllegalStateException(e);
      }
    }
    mostCarriers.accumulateAndGet(carriers, Math::max);
    mostPlatformThreads.accumulateAndGet(platform, Math::max);
  }

  /** The most carriers seen at once. */
  int most() {
    return mostCarriers.get();
  }

  /** The most platform threads of any kind seen at once (carriers, the server's, OkHttp's, JUnit's). */
  int mostPlatformThreads() {
    return mostPlatformThreads.get();
  }

  /** Stops sampling, after one last sample. */
  @Override
  public void close() throws InterruptedException {
    sampler.shutdown();
    if (!sampler.awaitTermination(10, TimeUnit.SECONDS)) {
      throw new IllegalStateException("the carrier sampler did not stop");
    }
    sample();
  }
}
