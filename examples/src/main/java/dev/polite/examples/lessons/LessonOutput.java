package dev.polite.examples.lessons;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Where a lesson prints: text lines for a reader, or with {@code --json} one JSON object per
 * measured thing (the text lines are then left out, so every stdout line parses). Public for
 * {@code nodes}, the reference's "Many nodes, one limit" as a command of its own, which prints
 * as a lesson does.
 *
 * <p>Usage: {@code out.text("race, Lua script: ..."); out.row(LessonOutput.fields("lesson", "race", "accepted", 10));}
 */
public final class LessonOutput {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private final PrintWriter out;
  private final boolean json;

  LessonOutput(PrintWriter out, boolean json) {
    this.out = out;
    this.json = json;
  }

  /** Whether rows are printed as JSON. */
  public boolean json() {
    return json;
  }

  /** A line for the reader; left out with {@code --json}. */
  public void text(String line) {
    if (!json) {
      out.println(line);
      out.flush();
    }
  }

  /**
   * A measured thing: printed as JSON with {@code --json}, otherwise as {@code line} (none when
   * null: a thing the text tells on a line of its own, with others).
   */
  public void row(@Nullable String line, Map<String, @Nullable Object> fields) {
    if (json) {
      try {
        out.println(MAPPER.writeValueAsString(fields));
      } catch (JsonProcessingException e) {
        throw new UncheckedIOException(e);
      }
    } else if (line != null) {
      out.println(line);
    }
    out.flush();
  }

  /** An ordered map of alternating names and values: {@code fields("lesson", "race", "accepted", 10)}. */
  public static Map<String, @Nullable Object> fields(@Nullable Object... namesAndValues) {
    if (namesAndValues.length % 2 != 0) {
      throw new IllegalArgumentException("namesAndValues: a name without a value");
    }
    Map<String, @Nullable Object> fields = new LinkedHashMap<>();
    for (int i = 0; i < namesAndValues.length; i += 2) {
      fields.put(String.valueOf(namesAndValues[i]), namesAndValues[i + 1]);
    }
    return fields;
  }
}
