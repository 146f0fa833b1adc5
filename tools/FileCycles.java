import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.spi.ToolProvider;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Finds circles between source files, and between packages, in compiled main classes.
 *
 * <p>Usage: {@code java tools/FileCycles.java [--packages] DIR...} where each DIR is a module's
 * {@code target/classes} (or a module directory, in which case {@code target/classes} under it is
 * read). For each DIR it runs {@code jdeps -verbose:class -filter:none} over the class files,
 * folds every nested class ({@code Outer$Inner}) into its top-level class (one top-level class is
 * one source file), keeps only the edges between the DIR's own classes, and prints the strongly
 * connected components of more than one file, each with the edges that close it. With
 * {@code --packages} it does the same with classes folded into their packages.
 *
 * <p>Exit status: 0 when no circle was found, 1 when one was, 2 on a usage or jdeps error.
 * {@code module-info} and {@code package-info} are left out: they name packages, not files.
 */
public final class FileCycles {

  private static final Pattern EDGE = Pattern.compile("^\\s+(\\S+)\\s+->\\s+(\\S+)\\s+.*$");

  public static void main(String[] args) throws IOException {
    boolean packages = false;
    List<Path> dirs = new ArrayList<>();
    for (String arg : args) {
      if (arg.equals("--packages")) {
        packages = true;
      } else if (arg.startsWith("-")) {
        usage("unknown option " + arg);
      } else {
        Path dir = Path.of(arg);
        Path classes = dir.resolve("target/classes");
        dirs.add(Files.isDirectory(classes) ? classes : dir);
      }
    }
    if (dirs.isEmpty()) {
      usage("no directory given");
    }
    int found = 0;
    for (Path dir : dirs) {
      if (!Files.isDirectory(dir)) {
        System.err.println("file-cycles: not a directory: " + dir + " (build the module first)");
        System.exit(2);
      }
      Map<String, Set<String>> classEdges = classEdges(dir);
      found += report(dir + " (files)", fold(classEdges, FileCycles::topLevel));
      if (packages) {
        found += report(dir + " (packages)", fold(classEdges, FileCycles::packageOf));
      }
    }
    System.exit(found == 0 ? 0 : 1);
  }

  private static void usage(String problem) {
    System.err.println("file-cycles: " + problem);
    System.err.println("usage: java tools/FileCycles.java [--packages] MODULE_OR_CLASSES_DIR...");
    System.exit(2);
  }

  /** Edges class -> class between the classes found in {@code dir}, from jdeps. */
  static Map<String, Set<String>> classEdges(Path dir) throws IOException {
    List<String> files;
    try (Stream<Path> walk = Files.walk(dir)) {
      files =
          walk.filter(p -> p.toString().endsWith(".class"))
              .filter(p -> !p.getFileName().toString().equals("module-info.class"))
              .filter(p -> !p.getFileName().toString().equals("package-info.class"))
              .map(Path::toString)
              .sorted()
              .collect(Collectors.toList());
    }
    Set<String> own = new TreeSet<>();
    for (String file : files) {
      String relative = dir.relativize(Path.of(file)).toString();
      own.add(relative.substring(0, relative.length() - ".class".length()).replace('/', '.'));
    }
    Map<String, Set<String>> edges = new TreeMap<>();
    own.forEach(c -> edges.put(c, new TreeSet<>()));
    if (files.isEmpty()) {
      return edges;
    }
    // Class files one by one (not the directory) so that a module-info does not make jdeps
    // resolve the module's requirements, which are not on its path here.
    List<String> jdepsArgs = new ArrayList<>(List.of("-verbose:class", "-filter:none"));
    jdepsArgs.addAll(files);
    ToolProvider jdeps =
        ToolProvider.findFirst("jdeps").orElseThrow(() -> new IllegalStateException("no jdeps"));
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int status =
        jdeps.run(new PrintWriter(out), new PrintWriter(err), jdepsArgs.toArray(String[]::new));
    if (status != 0) {
      System.err.println("file-cycles: jdeps failed on " + dir + ":\n" + err + out);
      System.exit(2);
    }
    for (String line : out.toString().split("\\R")) {
      Matcher m = EDGE.matcher(line);
      if (m.matches() && own.contains(m.group(1)) && own.contains(m.group(2))) {
        edges.get(m.group(1)).add(m.group(2));
      }
    }
    return edges;
  }

  static String topLevel(String className) {
    int dollar = className.indexOf('$');
    return dollar < 0 ? className : className.substring(0, dollar);
  }

  static String packageOf(String className) {
    int dot = className.lastIndexOf('.');
    return dot < 0 ? "(unnamed)" : className.substring(0, dot);
  }

  /** The graph with every node renamed by {@code group}; an edge inside one group is dropped. */
  static Map<String, Map<String, Set<String>>> fold(
      Map<String, Set<String>> edges, Function<String, String> group) {
    // node -> target node -> the class edges that make it ("A$B -> C")
    Map<String, Map<String, Set<String>>> folded = new TreeMap<>();
    edges.forEach(
        (from, targets) -> {
          String f = group.apply(from);
          Map<String, Set<String>> out = folded.computeIfAbsent(f, k -> new TreeMap<>());
          for (String to : targets) {
            String t = group.apply(to);
            if (!t.equals(f)) {
              out.computeIfAbsent(t, k -> new TreeSet<>()).add(from + " -> " + to);
            }
          }
        });
    return folded;
  }

  private static int report(String title, Map<String, Map<String, Set<String>>> graph) {
    List<List<String>> circles = stronglyConnected(graph);
    circles.removeIf(c -> c.size() < 2);
    System.out.println(
        title + ": " + graph.size() + " nodes, " + circles.size() + " circle(s)");
    int n = 0;
    for (List<String> circle : circles) {
      n++;
      Set<String> members = new TreeSet<>(circle);
      System.out.println("  circle " + n + " (" + members.size() + "): " + String.join(", ", members));
      for (String from : members) {
        graph.get(from).forEach(
            (to, why) -> {
              if (members.contains(to)) {
                System.out.println("    " + from + " -> " + to);
                why.stream().limit(4).forEach(w -> System.out.println("        via " + w));
                if (why.size() > 4) {
                  System.out.println("        ... " + (why.size() - 4) + " more");
                }
              }
            });
      }
    }
    return circles.size();
  }

  /** Tarjan's algorithm, iterative so that a long chain cannot overflow the stack. */
  static List<List<String>> stronglyConnected(Map<String, Map<String, Set<String>>> graph) {
    Map<String, Integer> index = new HashMap<>();
    Map<String, Integer> low = new HashMap<>();
    Deque<String> stack = new ArrayDeque<>();
    Set<String> onStack = new TreeSet<>();
    List<List<String>> result = new ArrayList<>();
    int[] counter = {0};
    for (String root : graph.keySet()) {
      if (index.containsKey(root)) {
        continue;
      }
      Deque<Object[]> work = new ArrayDeque<>(); // {node, iterator over its targets}
      index.put(root, counter[0]);
      low.put(root, counter[0]++);
      stack.push(root);
      onStack.add(root);
      work.push(new Object[] {root, graph.get(root).keySet().iterator()});
      while (!work.isEmpty()) {
        Object[] frame = work.peek();
        String node = (String) frame[0];
        @SuppressWarnings("unchecked")
        java.util.Iterator<String> it = (java.util.Iterator<String>) frame[1];
        if (it.hasNext()) {
          String next = it.next();
          if (!graph.containsKey(next)) {
            continue;
          }
          if (!index.containsKey(next)) {
            index.put(next, counter[0]);
            low.put(next, counter[0]++);
            stack.push(next);
            onStack.add(next);
            work.push(new Object[] {next, graph.get(next).keySet().iterator()});
          } else if (onStack.contains(next)) {
            low.put(node, Math.min(low.get(node), index.get(next)));
          }
        } else {
          work.pop();
          if (!work.isEmpty()) {
            String parent = (String) work.peek()[0];
            low.put(parent, Math.min(low.get(parent), low.get(node)));
          }
          if (low.get(node).equals(index.get(node))) {
            List<String> component = new ArrayList<>();
            String member;
            do {
              member = stack.pop();
              onStack.remove(member);
              component.add(member);
            } while (!member.equals(node));
            result.add(component);
          }
        }
      }
    }
    return result;
  }
}
