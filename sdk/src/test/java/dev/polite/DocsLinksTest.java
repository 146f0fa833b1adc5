package dev.polite;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every relative link in the repository's Markdown resolves: {@code [text](path)} names a file or
 * directory that exists, and {@code [text](page.md#anchor)} (or {@code (#anchor)}) names a heading
 * of that page, by GitHub's slug rules. Links to the web ({@code http:}, {@code https:},
 * {@code mailto:}) and anything inside fenced code blocks or inline code are not links here.
 * Every {@code *.md} under the repository's root (the parent of this module) is read, but
 * {@code target/}, {@code node_modules/} and hidden directories.
 */
class DocsLinksTest {
  private static final Pattern FENCE = Pattern.compile("^\\s{0,3}(```|~~~)");
  private static final Pattern INLINE_CODE = Pattern.compile("(`+)(?:(?!\\1).)+?\\1");
  private static final Pattern LINK = Pattern.compile("!?\\[(?:[^\\[\\]]|\\[[^\\[\\]]*\\])*\\]\\(\\s*(<[^>]*>|[^\\s)]+)(?:\\s+\"[^\"]*\")?\\s*\\)");
  private static final Pattern REFERENCE = Pattern.compile("^\\s{0,3}\\[[^\\]]+\\]:\\s*(<[^>]*>|\\S+)");
  private static final Pattern ATX = Pattern.compile("^\\s{0,3}(#{1,6})\\s+(.*?)\\s*#*\\s*$");
  private static final Pattern HTML_ID = Pattern.compile("<a\\s+(?:name|id)=\"([^\"]+)\"", Pattern.CASE_INSENSITIVE);

  private static final Path ROOT = Path.of("").toAbsolutePath().getParent();

  @Test
  void everyRelativeLinkResolves() throws IOException {
    assertThat(ROOT.resolve("pom.xml")).as("the repository's root, the module's parent").exists();
    List<Path> pages = markdown(ROOT);
    assertThat(pages).as("the Markdown pages").contains(ROOT.resolve("README.md"));

    List<String> broken = new ArrayList<>();
    Map<Path, Set<String>> anchors = new HashMap<>();
    for (Path page : pages) {
      for (Link link : links(page)) {
        String problem = check(page, link.target, anchors);
        if (problem != null) {
          broken.add(ROOT.relativize(page) + ":" + link.line + ": (" + link.target + ") " + problem);
        }
      }
    }
    assertThat(broken).as("relative links that do not resolve").isEmpty();
  }

  @Test
  void theSlugsAreGitHubs() {
    assertThat(slugs(List.of("# polite", "## Set up and run", "### The gate: `zoo --quick`",
        "## A fleet: one budget in Redis", "## Threads, and waiting without one", "## Set up and run",
        "## 1. Admission decision (BucketBench, ns per decision)", "## polite_redis & co.")))
        .containsExactly("polite", "set-up-and-run", "the-gate-zoo---quick",
            "a-fleet-one-budget-in-redis", "threads-and-waiting-without-one", "set-up-and-run-1",
            "1-admission-decision-bucketbench-ns-per-decision", "polite_redis--co");
  }

  @Test
  void aBrokenLinkIsCaught() throws IOException {
    Path page = ROOT.resolve("README.md");
    Map<Path, Set<String>> anchors = new HashMap<>();
    assertThat(check(page, "no-such-file.md", anchors)).isNotNull();
    assertThat(check(page, "README.md#no-such-heading", anchors)).isNotNull();
    assertThat(check(page, "#no-such-heading", anchors)).isNotNull();
    assertThat(check(page, "sdk/", anchors)).isNull();
    assertThat(check(page, "https://example.com/nothing", anchors)).isNull();
  }

  private static List<Path> markdown(Path root) throws IOException {
    try (Stream<Path> files = Files.walk(root)) {
      return files
          .filter(p -> p.toString().endsWith(".md") && Files.isRegularFile(p))
          .filter(p -> {
            for (Path part : root.relativize(p)) {
              String name = part.toString();
              if (name.equals("target") || name.equals("node_modules") || name.startsWith(".")) {
                return false;
              }
            }
            return true;
          })
          .sorted()
          .collect(Collectors.toList());
    }
  }

  private record Link(int line, String target) {}

  /** The page's links, outside fenced code blocks and inline code. */
  private static List<Link> links(Path page) throws IOException {
    List<Link> links = new ArrayList<>();
    List<String> lines = Files.readAllLines(page);
    boolean[] code = fencedCode(lines);
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      if (code[i]) {
        continue;
      }
      String text = INLINE_CODE.matcher(line).replaceAll("");
      Matcher m = LINK.matcher(text);
      while (m.find()) {
        links.add(new Link(i + 1, unbracket(m.group(1))));
      }
      Matcher r = REFERENCE.matcher(text);
      if (r.find()) {
        links.add(new Link(i + 1, unbracket(r.group(1))));
      }
    }
    return links;
  }

  /** Which lines are fenced code, the fences included. */
  private static boolean[] fencedCode(List<String> lines) {
    boolean[] code = new boolean[lines.size()];
    String fence = null;
    for (int i = 0; i < lines.size(); i++) {
      Matcher f = FENCE.matcher(lines.get(i));
      if (f.find()) {
        code[i] = true;
        if (fence == null) {
          fence = f.group(1);
        } else if (f.group(1).equals(fence)) {
          fence = null;
        }
      } else {
        code[i] = fence != null;
      }
    }
    return code;
  }

  private static String unbracket(String target) {
    return target.startsWith("<") && target.endsWith(">") ? target.substring(1, target.length() - 1) : target;
  }

  /** Why {@code target}, linked from {@code page}, does not resolve; null when it does. */
  private static String check(Path page, String target, Map<Path, Set<String>> anchors) throws IOException {
    String lower = target.toLowerCase(Locale.ROOT);
    if (lower.startsWith("http:") || lower.startsWith("https:") || lower.startsWith("mailto:")) {
      return null;
    }
    if (lower.matches("^[a-z][a-z0-9+.-]*:.*")) {
      return "is neither relative nor http(s)/mailto";
    }
    int hash = target.indexOf('#');
    String path = hash < 0 ? target : target.substring(0, hash);
    String anchor = hash < 0 ? null : target.substring(hash + 1);
    int query = path.indexOf('?');
    if (query >= 0) {
      path = path.substring(0, query);
    }
    path = java.net.URLDecoder.decode(path.replace("+", "%2B"), java.nio.charset.StandardCharsets.UTF_8);
    Path resolved = path.isEmpty() ? page : page.getParent().resolve(path).normalize();
    if (!resolved.startsWith(ROOT)) {
      return "leaves the repository";
    }
    if (!Files.exists(resolved)) {
      return "no such file or directory";
    }
    if (anchor == null || anchor.isEmpty()) {
      return null;
    }
    if (!resolved.toString().endsWith(".md") || !Files.isRegularFile(resolved)) {
      return "an anchor into a file that is not Markdown";
    }
    Set<String> known = anchors.computeIfAbsent(resolved, DocsLinksTest::anchorsOf);
    return known.contains(anchor.toLowerCase(Locale.ROOT)) ? null
        : "no heading #" + anchor + " in " + ROOT.relativize(resolved);
  }

  private static Set<String> anchorsOf(Path page) {
    try {
      List<String> headings = new ArrayList<>();
      Set<String> ids = new LinkedHashSet<>();
      String previous = null;
      List<String> lines = Files.readAllLines(page);
      boolean[] code = fencedCode(lines);
      for (int i = 0; i < lines.size(); i++) {
        String line = lines.get(i);
        if (code[i]) {
          previous = null;
          continue;
        }
        Matcher id = HTML_ID.matcher(line);
        while (id.find()) {
          ids.add(id.group(1).toLowerCase(Locale.ROOT));
        }
        if (ATX.matcher(line).matches()) {
          headings.add(line);
        } else if (previous != null && !previous.isBlank() && line.matches("^\\s{0,3}(=+|-+)\\s*$")
            && !previous.startsWith("|") && !previous.startsWith("-") && !previous.startsWith("*")) {
          headings.add("# " + previous);
        }
        previous = line;
      }
      Set<String> all = new LinkedHashSet<>(slugs(headings));
      all.addAll(ids);
      return all;
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** GitHub's anchors for these headings, in order: duplicates numbered from -1. */
  static List<String> slugs(List<String> headings) {
    Map<String, Integer> seen = new HashMap<>();
    List<String> slugs = new ArrayList<>();
    for (String heading : headings) {
      Matcher m = ATX.matcher(heading);
      String text = m.matches() ? m.group(2) : heading;
      String slug = slug(text);
      int n = seen.merge(slug, 1, Integer::sum) - 1;
      slugs.add(n == 0 ? slug : slug + "-" + n);
    }
    return slugs;
  }

  private static String slug(String text) {
    String plain = text
        .replaceAll("!?\\[([^\\]]*)\\]\\([^)]*\\)", "$1") // a link's text
        .replaceAll("<[^>]+>", "");                         // inline HTML
    StringBuilder slug = new StringBuilder();
    plain.toLowerCase(Locale.ROOT).codePoints().forEach(c -> {
      if (Character.isLetterOrDigit(c) || c == '-' || c == '_') {
        slug.appendCodePoint(c);
      } else if (c == ' ') {
        slug.append('-');
      }
    });
    return slug.toString();
  }
}
