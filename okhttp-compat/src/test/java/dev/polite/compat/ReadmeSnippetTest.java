package dev.polite.compat;

import static org.assertj.core.api.Assertions.assertThat;

import dev.polite.compat.LocalServer.Reply;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The whole OkHttp programs the pages show are {@code src/test/java/PoliteExample.java} (README.md,
 * "Add it") and {@code PoliteAsyncExample.java} (docs/threads-and-async.md), word for word: so
 * they compile against the public API (with the OkHttp under test), and they run.
 */
class ReadmeSnippetTest {
  private static final Pattern JAVA_BLOCK = Pattern.compile("```java\n(.*?)```", Pattern.DOTALL);

  @ParameterizedTest
  @CsvSource({"PoliteExample, README.md", "PoliteAsyncExample, docs/threads-and-async.md"})
  void thePagesSnippetIsTheCompiledExample(String name, String page) throws Exception {
    Path root = Path.of(System.getProperty("polite.readme")).toAbsolutePath().getParent();
    String readme = Files.readString(root.resolve(page));
    Path examples = Path.of(System.getProperty("polite.snippet")).getParent();
    String example = Files.readString(examples.resolve(name + ".java"));
    String snippet = null;
    Matcher m = JAVA_BLOCK.matcher(readme);
    while (m.find()) {
      if (m.group(1).contains("class " + name + " ")) {
        snippet = m.group(1);
      }
    }
    assertThat(snippet).as("a ```java block in " + page + " with class " + name).isNotNull();
    assertThat(snippet.strip()).isEqualTo(example.strip());
  }

  @ParameterizedTest
  @ValueSource(strings = {"PoliteExample", "PoliteAsyncExample"})
  void theExampleRunsOneCall(String name) throws Exception {
    PrintStream out = System.out;
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    try (LocalServer server = new LocalServer(path -> Reply.ok())) {
      System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
      try {
        Class.forName(name).getMethod("main", String[].class)
            .invoke(null, (Object) new String[] {server.url("/hello")});
      } finally {
        System.setOut(out);
      }
      assertThat(server.paths()).containsExactly("/hello");
    }
    assertThat(printed.toString(StandardCharsets.UTF_8).strip()).isEqualTo("200");
  }
}
