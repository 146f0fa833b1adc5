package dev.polite.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
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

/**
 * A whole program as the README (or a page of {@code docs/}) shows it: the {@code ```java} block
 * that declares {@code class NAME}, compiled against the test's class path (the module under test and the
 * core) at release 17, and run, its standard output caught. What the engines' README tests share,
 * so that every snippet a user copies is one the build compiled and ran.
 *
 * <pre>{@code String printed = ReadmeProgram.named("PoliteJdkExample").compile(dir).run(url);
 * ReadmeProgram.named("PoliteWebClientExample", "docs/spring.md")}</pre>
 */
public final class ReadmeProgram {
  private static final Pattern JAVA_BLOCK = Pattern.compile("```java\n(.*?)```", Pattern.DOTALL);

  private final String name;
  private final String source;

  private ReadmeProgram(String name, String source) {
    this.name = name;
    this.source = source;
  }

  /** The README's ({@code polite.readme}, set by the module's surefire) block declaring {@code class name}. */
  public static ReadmeProgram named(String name) throws IOException {
    return named(name, readme());
  }

  /**
   * The block declaring {@code class name} in {@code page}, a path from the repository's root (the
   * README's directory), such as {@code docs/spring.md}.
   */
  public static ReadmeProgram named(String name, String page) throws IOException {
    return named(name, readme().toAbsolutePath().getParent().resolve(page));
  }

  private static Path readme() {
    return Path.of(System.getProperty("polite.readme"));
  }

  private static ReadmeProgram named(String name, Path page) throws IOException {
    String text = Files.readString(page);
    String program = null;
    Matcher m = JAVA_BLOCK.matcher(text);
    while (m.find()) {
      if (m.group(1).contains("class " + name + " ")) {
        program = m.group(1);
      }
    }
    assertThat(program).as("a ```java block in " + page + " with class " + name).isNotNull();
    return new ReadmeProgram(name, program);
  }

  /** The program compiled into {@code out}, ready to run; fails the test with javac's words. */
  public Compiled compile(Path out) throws IOException {
    Path file = out.resolve(name + ".java");
    Files.writeString(file, source);
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    StringWriter diagnostics = new StringWriter();
    boolean compiled;
    try (StandardJavaFileManager files = javac.getStandardFileManager(null, null, null)) {
      compiled = javac.getTask(diagnostics, files, null,
          List.of("--release", "17", "-proc:none",
              "-classpath", System.getProperty("java.class.path"), "-d", out.toString()),
          null, files.getJavaFileObjects(file.toFile())).call();
    }
    assertThat(compiled).as("javac:%n%s", diagnostics).isTrue();
    return new Compiled(out);
  }

  /** The compiled program. */
  public final class Compiled {
    private final Path classes;

    private Compiled(Path classes) {
      this.classes = classes;
    }

    /** Runs its {@code main} with {@code args} on this thread; what it printed, stripped. */
    public String run(String... args) throws Exception {
      PrintStream stdout = System.out;
      ByteArrayOutputStream printed = new ByteArrayOutputStream();
      try (URLClassLoader loader = new URLClassLoader(new URL[] {classes.toUri().toURL()},
          ReadmeProgram.class.getClassLoader())) {
        System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
        loader.loadClass(name).getMethod("main", String[].class).invoke(null, (Object) args);
      } finally {
        System.setOut(stdout);
      }
      return printed.toString(StandardCharsets.UTF_8).strip();
    }
  }
}
