package dev.polite.examples;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/** Runs the command line in process and keeps what it printed, for assertions. */
final class Cli {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  final int exit;
  final String out;
  final String err;

  private Cli(int exit, String out, String err) {
    this.exit = exit;
    this.out = out;
    this.err = err;
  }

  static Cli run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int exit = Main.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
    return new Cli(exit, out.toString(), err.toString());
  }

  List<String> outLines() {
    return out.lines().filter(line -> !line.isBlank()).toList();
  }

  /** The last stdout line, as JSON. */
  JsonNode lastJson() {
    List<String> lines = outLines();
    return parse(lines.get(lines.size() - 1));
  }

  /** Every stdout line, as JSON. */
  List<JsonNode> jsonLines() {
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
