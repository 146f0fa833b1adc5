package dev.polite.vthreads;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;

/**
 * Records every time a virtual thread parks or blocks while pinned to its carrier: JFR's
 * {@code jdk.VirtualThreadPinned}, at a threshold of zero (its default, 20 ms, would miss a
 * pinned 5 ms poll), with stack traces. JFR is the only way left: {@code -Djdk.tracePinnedThreads}
 * was removed in JDK 24 (with JEP 491, which stopped {@code synchronized} and
 * {@code Object.wait} from pinning), and JDK 25's {@code java.base} no longer reads it.
 *
 * <p>Each event is sorted by whose frames its stack holds: polite's ({@code dev.polite}, but not
 * this module's own {@code dev.polite.vthreads} nor the demo server's {@code dev.polite.demo}),
 * else OkHttp's or Okio's, else someone else's. The surefire fork records 256 frames deep, so a
 * pin far down OkHttp's interceptor chain still shows polite's interceptor beneath it.
 *
 * <p>Class loading and initialization are told apart: a thread that loads a class, or waits for
 * another to initialize one, is pinned by the JVM whoever called it (the loader's lock is taken
 * under a VM frame), once per class and cold JVM. Those pins show polite's frames when polite's
 * first call loads its own classes, but they are not polite waiting.
 */
final class Pinning implements AutoCloseable {
  private static final String EVENT = "jdk.VirtualThreadPinned";

  private final Recording recording = new Recording();
  private List<RecordedEvent> events = List.of();

  private Pinning() {
    recording.enable(EVENT).withThreshold(Duration.ZERO).withStackTrace();
  }

  /** Starts recording at once. */
  static Pinning record() {
    Pinning pinning = new Pinning();
    pinning.recording.start();
    return pinning;
  }

  /** Stops recording and reads what it recorded. */
  List<RecordedEvent> stop() throws IOException {
    recording.stop();
    Path file = Files.createTempFile("pinning", ".jfr");
    try {
      recording.dump(file);
      events = RecordingFile.readAllEvents(file).stream()
          .filter(event -> event.getEventType().getName().equals(EVENT))
          .toList();
    } finally {
      Files.deleteIfExists(file);
    }
    return events;
  }

  /** The events with a frame of polite's on their stacks, class loading aside: polite's own pins. */
  List<RecordedEvent> polite() {
    return events.stream().filter(event -> inPolite(event) && !loadingClasses(event)).toList();
  }

  /** The events with a frame of polite's that were loading or initializing a class. */
  List<RecordedEvent> politeLoadingClasses() {
    return events.stream().filter(event -> inPolite(event) && loadingClasses(event)).toList();
  }

  /** The events with no frame of polite's but one of OkHttp's or Okio's. */
  List<RecordedEvent> okHttp() {
    return events.stream().filter(event -> !inPolite(event) && inOkHttp(event)).toList();
  }

  /**
   * Pinned loading a class (a frame of a class loader's {@code loadClass}), initializing one (a
   * {@code <clinit>} frame), or waiting for another thread to (JDK 24's reason says so; the wait
   * itself has no Java frame).
   */
  static boolean loadingClasses(RecordedEvent event) {
    if (event.hasField("pinnedReason") && String.valueOf(event.getString("pinnedReason"))
        .startsWith("Waited for initialization")) {
      return true;
    }
    return event.getStackTrace() != null && event.getStackTrace().getFrames().stream()
        .map(RecordedFrame::getMethod)
        .anyMatch(method -> method.getName().equals("<clinit>") || (method.getName().startsWith("loadClass")
            && (method.getType().getName().equals("java.lang.ClassLoader")
                || method.getType().getName().startsWith("jdk.internal.loader."))));
  }

  static boolean inPolite(RecordedEvent event) {
    return frames(event).stream().anyMatch(type -> type.startsWith("dev.polite.")
        && !type.startsWith("dev.polite.vthreads.") && !type.startsWith("dev.polite.demo."));
  }

  static boolean inOkHttp(RecordedEvent event) {
    return frames(event).stream().anyMatch(type -> type.startsWith("okhttp3.") || type.startsWith("okio."));
  }

  /** The class of each frame, innermost first. */
  private static List<String> frames(RecordedEvent event) {
    if (event.getStackTrace() == null) {
      return List.of();
    }
    return event.getStackTrace().getFrames().stream()
        .map(frame -> frame.getMethod().getType().getName())
        .toList();
  }

  /** An event's innermost frames, one a line, for a failure message. */
  static String describe(RecordedEvent event) {
    if (event.getStackTrace() == null) {
      return event.getEventType().getName() + " (no stack)";
    }
    String why = (event.hasField("blockingOperation") ? event.getString("blockingOperation") : "?")
        + ", " + (event.hasField("pinnedReason") ? event.getString("pinnedReason") : "?");
    return event.getDuration() + " pinned (" + why + ") at\n" + event.getStackTrace().getFrames().stream()
        .limit(24)
        .map(Pinning::line)
        .collect(Collectors.joining("\n"));
  }

  private static String line(RecordedFrame frame) {
    return "  " + frame.getMethod().getType().getName() + "." + frame.getMethod().getName()
        + ":" + frame.getLineNumber();
  }

  @Override
  public void close() {
    recording.close();
  }
}
