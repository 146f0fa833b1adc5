package dev.polite.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Holds the core's main sources to the rules their package-info files state: which internal room
 * ({@code dev.polite.internal.model}, {@code .call}, ...) may use which, so that they read
 * top-down with no circle, and that no file of the core imports an HTTP engine. It reads the
 * sources' import lines (and fully qualified names in code), so a rule broken shows as the file
 * and the line that broke it.
 */
class InternalRoomsTest {
  private static final Path INTERNAL = Path.of("src/main/java/dev/polite/internal");
  private static final Path CORE = Path.of("src/main/java");

  /** Each room, and the rooms it may use ("" is {@code dev.polite.internal} itself). */
  private static final Map<String, Set<String>> MAY_USE = Map.of(
      "", Set.of(),
      "headers", Set.of(""),
      "model", Set.of(""),
      "budgets", Set.of(""),
      "listening", Set.of(""),
      "retry", Set.of("", "model", "headers"),
      "call", Set.of("", "model", "budgets", "retry"));

  private static final Pattern INTERNAL_USE =
      Pattern.compile("\\bdev\\.polite\\.internal((?:\\.[a-z]\\w*)*)\\.[A-Z]");
  private static final Pattern ENGINE = Pattern.compile(
      "^import (static )?(okhttp3|okio|java\\.net\\.http|org\\.apache\\.hc|org\\.springframework|io\\.netty"
          + "|reactor|io\\.lettuce|io\\.micrometer)\\.", Pattern.MULTILINE);

  @Test
  void everyRoomUsesOnlyTheRoomsItsPackageInfoAllows() throws IOException {
    List<String> broken = new ArrayList<>();
    for (Path file : sources(INTERNAL)) {
      String room = roomOf(file);
      assertThat(MAY_USE).as("a new room needs its rules here and in its package-info: " + room)
          .containsKey(room);
      String code = withoutComments(Files.readString(file));
      for (String line : code.split("\n")) {
        Matcher m = INTERNAL_USE.matcher(line);
        while (m.find()) {
          String used = m.group(1).isEmpty() ? "" : m.group(1).substring(1).split("\\.")[0];
          if (!used.equals(room) && !MAY_USE.get(room).contains(used)) {
            broken.add(INTERNAL.relativize(file) + ": " + line.strip());
          }
        }
      }
      if (room.isEmpty()) {
        assertThat(code).as(file + " imports nothing of polite's").doesNotContain("import dev.polite.");
      }
    }
    assertThat(broken).as("uses a room its package-info forbids").isEmpty();
  }

  @Test
  void theRoomsHaveNoCircle() {
    Map<String, Set<String>> left = new TreeMap<>();
    MAY_USE.forEach((room, uses) -> left.put(room, new HashSet<>(uses)));
    // Peel off the rooms that use no room left; a circle is what never peels.
    boolean peeled = true;
    while (peeled) {
      Set<String> free = new TreeSet<>();
      left.forEach((room, uses) -> {
        uses.remove(room);
        if (uses.isEmpty()) {
          free.add(room);
        }
      });
      free.forEach(left::remove);
      left.values().forEach(uses -> uses.removeAll(free));
      peeled = !free.isEmpty();
    }
    assertThat(left).as("rooms in a circle").isEmpty();
  }

  @Test
  void noFileOfTheCoreImportsAnHttpEngine() throws IOException {
    List<String> engines = new ArrayList<>();
    for (Path file : sources(CORE)) {
      Matcher m = ENGINE.matcher(Files.readString(file));
      while (m.find()) {
        engines.add(CORE.relativize(file) + ": " + m.group());
      }
    }
    assertThat(engines).isEmpty();
  }

  @Test
  void theRulesSeeEveryRoom() throws IOException {
    Set<String> rooms = new TreeSet<>();
    for (Path file : sources(INTERNAL)) {
      rooms.add(roomOf(file));
    }
    assertThat(rooms).containsExactlyInAnyOrderElementsOf(MAY_USE.keySet());
  }

  private static String roomOf(Path file) {
    Path dir = INTERNAL.relativize(file).getParent();
    return dir == null ? "" : dir.getName(0).toString();
  }

  private static List<Path> sources(Path root) throws IOException {
    assertThat(root).as("run from the sdk module's directory").isDirectory();
    try (Stream<Path> files = Files.walk(root)) {
      return files.filter(p -> p.toString().endsWith(".java")).sorted().toList();
    }
  }

  /** Comments and string literals, read in one pass so that neither hides the other. */
  private static final Pattern NOT_CODE = Pattern.compile(
      "\"\"\"[\\s\\S]*?\"\"\"|\"(?:\\\\.|[^\"\\\\\n])*\"|'(?:\\\\.|[^'\\\\\n])*'|/\\*[\\s\\S]*?\\*/|//[^\n]*");

  /** The code without its comments and strings: a {@code {@link}} in a comment imports nothing. */
  private static String withoutComments(String source) {
    return NOT_CODE.matcher(source).replaceAll(m -> m.group().startsWith("/") ? " " : "\"\"");
  }
}
