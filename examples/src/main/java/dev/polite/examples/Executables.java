package dev.polite.examples;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Finds a program on the {@code PATH}, as a shell would, without running anything, and then in
 * the system directories Debian installs daemons to ({@code /usr/sbin}, {@code /usr/local/sbin}),
 * which an ordinary user's {@code PATH} leaves out although anyone may run what is there. The zoo
 * asks it for {@code haproxy}; tests pass their own lookup instead, so the "not installed" path
 * is tested on a machine where it is installed.
 *
 * <p>Usage: {@code Optional<Path> haproxy = Executables.onPath("haproxy");}
 */
public final class Executables {
  private Executables() {}

  /** The system directories searched after the {@code PATH}. */
  static final String SYSTEM_DIRECTORIES = String.join(File.pathSeparator, "/usr/sbin", "/usr/local/sbin");

  /**
   * The first executable file named {@code name} in the {@code PATH}'s directories, then in
   * {@link #SYSTEM_DIRECTORIES}, if any.
   */
  public static Optional<Path> onPath(String name) {
    String path = System.getenv("PATH");
    return onPath(name, (path == null || path.isEmpty() ? "" : path + File.pathSeparator) + SYSTEM_DIRECTORIES);
  }

  /** As {@link #onPath(String)}, searching {@code path} (entries separated as the platform does). */
  static Optional<Path> onPath(String name, @Nullable String path) {
    if (path == null || path.isEmpty()) {
      return Optional.empty();
    }
    for (String dir : path.split(File.pathSeparator)) {
      if (dir.isEmpty()) {
        continue;
      }
      Path candidate = Path.of(dir, name);
      if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
        return Optional.of(candidate);
      }
    }
    return Optional.empty();
  }
}
