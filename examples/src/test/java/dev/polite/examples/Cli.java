package dev.polite.examples;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs the command line in process and keeps what it printed, for assertions. Public, since each
 * command's tests live in that command's package.
 */
public final class Cli {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  public final int exit;
  public final String out;
  public final String err;

  private Cli(int exit, String out, String err) {
    this.exit = exit;
    this.out = out;
    this.err = err;
  }

  public static Cli run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int exit = Main.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
    return new Cli(exit, out.toString(), err.toString());
  }

  public List<String> outLines() {
    return out.lines().filter(line -> !line.isBlank()).toList();
  }

  /** The last stdout line, as JSON. */
  public JsonNode lastJson() {
    List<String> lines = outLines();
    return parse(lines.get(lines.size() - 1));
  }

  /** Every stdout line, as JSON. */
  public List<JsonNode> jsonLines() {
    List<JsonNode> nodes = new ArrayList<>();
    for (String line : outLines()) {
      nodes.add(parse(line));
    }
    return nodes;
  }

  private static JsonNode parse(String line) {
    try {
      return MAPPER.readTree(line);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new UncheckedIOException("not JSON: " + line, e);
    }
  }

  @Override
  public String toString() {
    return "exit " + exit + "\n--- out\n" + out + "--- err\n" + err;
  }
}
