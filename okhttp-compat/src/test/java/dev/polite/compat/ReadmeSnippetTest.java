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
import org.junit.jupiter.api.Test;

/**
 * The README's "Add it" snippet is {@code src/test/java/PoliteExample.java}, word for word: so it
 * compiles against the public API (with the OkHttp under test), and it runs.
 */
class ReadmeSnippetTest {
  private static final Pattern JAVA_BLOCK = Pattern.compile("```java\n(.*?)```", Pattern.DOTALL);

  @Test
  void theReadmeSnippetIsTheCompiledExample() throws Exception {
    String readme = Files.readString(Path.of(System.getProperty("polite.readme")));
    String example = Files.readString(Path.of(System.getProperty("polite.snippet")));
    String snippet = null;
    Matcher m = JAVA_BLOCK.matcher(readme);
    while (m.find()) {
      if (m.group(1).contains("class PoliteExample")) {
        snippet = m.group(1);
      }
    }
    assertThat(snippet).as("a ```java block in README.md with class PoliteExample").isNotNull();
    assertThat(snippet.strip()).isEqualTo(example.strip());
  }

  @Test
  void theExampleRunsOneCall() throws Exception {
    PrintStream out = System.out;
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    try (LocalServer server = new LocalServer(path -> Reply.ok())) {
      System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
      try {
        Class.forName("PoliteExample").getMethod("main", String[].class)
            .invoke(null, (Object) new String[] {server.url("/hello")});
      } finally {
        System.setOut(out);
      }
      assertThat(server.paths()).containsExactly("/hello");
    }
    assertThat(printed.toString(StandardCharsets.UTF_8).strip()).isEqualTo("200");
  }
}
