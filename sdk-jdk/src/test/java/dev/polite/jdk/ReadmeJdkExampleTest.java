package dev.polite.jdk;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.StringWriter;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.JavaCompiler;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's whole program on the JDK client, {@code PoliteJdkExample}, as it stands in the
 * README: compiled against this module and the core, then run for one call that polite retries.
 */
class ReadmeJdkExampleTest {
  private static final Pattern JAVA_BLOCK = Pattern.compile("```java\n(.*?)```", Pattern.DOTALL);
  private static final String NAME = "PoliteJdkExample";

  @Test
  void theReadmesJdkProgramCompilesAndMakesItsCall(@TempDir Path out) throws Exception {
    String readme = Files.readString(Path.of(System.getProperty("polite.readme")));
    String program = null;
    Matcher m = JAVA_BLOCK.matcher(readme);
    while (m.find()) {
      if (m.group(1).contains("class " + NAME + " ")) {
        program = m.group(1);
      }
    }
    assertThat(program).as("a ```java block in README.md with class " + NAME).isNotNull();
    Path source = out.resolve(NAME + ".java");
    Files.writeString(source, program);

    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    StringWriter diagnostics = new StringWriter();
    boolean compiled;
    try (StandardJavaFileManager files = javac.getStandardFileManager(null, null, null)) {
      compiled = javac.getTask(diagnostics, files, null,
          List.of("--release", "17", "-proc:none",
              "-classpath", System.getProperty("java.class.path"), "-d", out.toString()),
          null, files.getJavaFileObjects(source.toFile())).call();
    }
    assertThat(compiled).as("javac:%n%s", diagnostics).isTrue();

    try (MockWebServer server = new MockWebServer()) {
      server.enqueue(new MockResponse.Builder().code(429).addHeader("Retry-After", "0").build());
      server.enqueue(new MockResponse.Builder().code(200).body("hello").build());
      server.start();
      PrintStream stdout = System.out;
      ByteArrayOutputStream printed = new ByteArrayOutputStream();
      try (URLClassLoader loader = new URLClassLoader(new URL[] {out.toUri().toURL()},
          getClass().getClassLoader())) {
        System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
        loader.loadClass(NAME).getMethod("main", String[].class)
            .invoke(null, (Object) new String[] {server.url("/hello").toString()});
      } finally {
        System.setOut(stdout);
      }
      assertThat(printed.toString(StandardCharsets.UTF_8).strip())
          .as("the 429 retried, the 200 printed").isEqualTo("200");
      assertThat(server.getRequestCount()).isEqualTo(2);
    }
  }
}
