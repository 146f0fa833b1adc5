package dev.polite.compat;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The behaviour tests reach the paths calls take; this reaches the rest: every line of the core's,
 * the OkHttp adapter's and sdk-adaptive's main sources compiles against the OkHttp under test, so
 * no 5.x-only member hides on a path the tests do not take.
 */
class SourcesCompileAgainstThisOkHttpTest {
  @Test
  void theLibrariesCompileAgainstThisOkHttp(@TempDir Path out) throws Exception {
    Path root = Path.of(System.getProperty("polite.readme")).toAbsolutePath().normalize().getParent();
    List<String> sources = new ArrayList<>();
    for (String module : List.of("sdk", "sdk-okhttp", "sdk-adaptive")) {
      try (Stream<Path> files = Files.walk(root.resolve(module).resolve("src/main/java"))) {
        files.filter(p -> p.toString().endsWith(".java") && !p.endsWith("module-info.java"))
            .map(Path::toString)
            .forEach(sources::add);
      }
    }
    assertThat(sources).hasSizeGreaterThan(20);

    StringWriter diagnostics = new StringWriter();
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    List<String> options = List.of("--release", "17", "-proc:none", "-nowarn",
        "-classpath", classPath(), "-d", out.toString());
    boolean ok;
    try (StandardJavaFileManager files = javac.getStandardFileManager(null, null, null)) {
      ok = javac.getTask(diagnostics, files, null, options, null,
          files.getJavaFileObjectsFromStrings(sources)).call();
    }

    assertThat(ok).as("javac against OkHttp %s:%n%s", System.getProperty("okhttp.compat.version"), diagnostics).isTrue();
  }

  /** The libraries' dependencies as the test sees them, without the built libraries themselves. */
  private static String classPath() throws ClassNotFoundException, IOException {
    Set<String> jars = new LinkedHashSet<>();
    for (String name : List.of("okhttp3.OkHttpClient", "okio.Buffer", "kotlin.Unit",
        "dev.failsafe.Failsafe", "org.slf4j.LoggerFactory", "org.jspecify.annotations.Nullable")) {
      try {
        jars.add(Path.of(Class.forName(name).getProtectionDomain().getCodeSource().getLocation().toURI()).toString());
      } catch (java.net.URISyntaxException e) {
        throw new IOException(e);
      }
    }
    return jars.stream().collect(Collectors.joining(File.pathSeparator));
  }
}
