package dev.polite.demo;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * One setting of the demo server, declared once in {@link Settings}: the name its messages use,
 * its default, the values it accepts and, when it has one, its command-line flag (how the flag is
 * spelled and read, and what the usage says of it). The configuration, its builder and the command
 * are all written from these declarations, so a setting's default and rule each live in one place.
 * A setting knows nothing of the configuration: the command hands each value it reads to the
 * builder, which keeps it by its setting.
 *
 * <p>Refusals name the setting as the builder does ({@code maxKeys: must be at least 1, was 0});
 * text that does not parse names the flag as the user typed it ({@code redis-timeout: 'x' is not
 * a duration ...}).
 *
 * @param <T> the value's type, as the configuration returns it
 */
final class Setting<T> {
  /** How the command line gives a value: once, as a bare switch, or any number of times. */
  private enum Shape { ONCE, SWITCH, REPEATED }

  /** What the command line needs: the flag, its usage and its own default. */
  private record Flag(String name, String paramLabel, String description, @Nullable String defaultText) {}

  /** How one value is read: from the flag's name (for messages) and every text given for it. */
  private interface Reader<T> {
    T read(String label, List<String> texts);
  }

  private final String name;
  private final @Nullable String defaultText;
  private final T defaultValue;
  private final Shape shape;
  private final String split;
  private final Reader<T> reader;
  private final UnaryOperator<T> check;
  private final @Nullable Flag flag;
  private final boolean secret;

  private Setting(String name, @Nullable String defaultText, @Nullable T defaultValue, Shape shape,
      String split, Reader<T> reader, UnaryOperator<T> check, @Nullable Flag flag) {
    this(name, defaultText, defaultValue, shape, split, reader, check, flag, false);
  }

  private Setting(String name, @Nullable String defaultText, @Nullable T defaultValue, Shape shape,
      String split, Reader<T> reader, UnaryOperator<T> check, @Nullable Flag flag, boolean secret) {
    this.name = name;
    this.secret = secret;
    this.defaultText = defaultText;
    this.shape = shape;
    this.split = split;
    this.reader = reader;
    this.check = check;
    this.flag = flag;
    this.defaultValue = check(defaultValue != null ? defaultValue
        : reader.read(name, defaultText == null ? List.of() : List.of(defaultText)));
  }

  private static <T> Setting<T> once(String name, String defaultText, Reader<T> read, UnaryOperator<T> check) {
    return new Setting<>(name, defaultText, null, Shape.ONCE, "", read, check, null);
  }

  /** Text, such as a host name, refused with "{@code NAME: REFUSAL}" unless {@code ok}. */
  static Setting<String> text(String name, String defaultText, Predicate<String> ok,
      Function<String, String> refusal) {
    return once(name, defaultText, (label, texts) -> texts.get(0), refusing(name, ok, refusal));
  }

  /** A whole number, refused with "{@code NAME: RULE, was VALUE}" unless {@code ok}. */
  static Setting<Long> whole(String name, long defaultValue, Predicate<Long> ok, String rule) {
    return once(name, Long.toString(defaultValue), (label, texts) -> wholeNumber(label, texts.get(0)),
        refusing(name, ok, rule));
  }

  /** A whole number that fits an {@code int}, refused with "{@code NAME: RULE, was VALUE}" unless {@code ok}. */
  static Setting<Integer> count(String name, int defaultValue, Predicate<Integer> ok, String rule) {
    return once(name, Integer.toString(defaultValue), (label, texts) -> intNumber(label, texts.get(0)),
        refusing(name, ok, rule));
  }

  /** A duration as {@link DurationText} reads it, refused with "{@code NAME: RULE, was VALUE}" unless {@code ok}. */
  static Setting<Duration> duration(String name, String defaultText, Predicate<Duration> ok, String rule) {
    return once(name, defaultText, (label, texts) -> DurationText.parse(label, texts.get(0)),
        refusing(name, ok, rule));
  }

  /** A duration that may be negative ({@code -30s}), refused unless {@code ok}. */
  static Setting<Duration> signedDuration(String name, String defaultText, Predicate<Duration> ok, String rule) {
    return once(name, defaultText, (label, texts) -> DurationText.parseSigned(label, texts.get(0)),
        refusing(name, ok, rule));
  }

  /** One of a set of named values, read by {@code parse}, which names what it accepts when it refuses. */
  static <T> Setting<T> choice(String name, String defaultText, Function<String, T> parse) {
    return once(name, defaultText, (label, texts) -> parse.apply(texts.get(0)), refusing(name, value -> true, ""));
  }

  /** Off unless the command line names it. */
  static Setting<Boolean> onOff(String name) {
    return new Setting<>(name, null, false, Shape.SWITCH, "", (label, texts) -> Boolean.parseBoolean(texts.get(0)),
        refusing(name, value -> true, ""), null);
  }

  /**
   * A value the command line gives any number of times (each time perhaps several, separated by
   * {@code split}, a regular expression; empty for none), {@code read} into one value, empty unless
   * given. {@code check} validates the whole value, naming the setting, and returns it frozen.
   */
  static <T> Setting<T> repeated(String name, String split, Function<List<String>, T> read, UnaryOperator<T> check) {
    UnaryOperator<T> nonNull = refusing(name, value -> true, "");
    return new Setting<>(name, null, null, Shape.REPEATED, split, (label, texts) -> read.apply(texts),
        value -> check.apply(nonNull.apply(value)), null);
  }

  /** A value only code can give, such as a clock: no flag, anything but null. */
  static <T> Setting<T> inProcess(String name, T defaultValue) {
    return new Setting<>(name, null, defaultValue, Shape.ONCE, "", (label, texts) -> {
      throw new IllegalStateException(name + " has no text form");
    }, refusing(name, value -> true, ""), null);
  }

  /**
   * This setting on the command line as {@code flag} (such as {@code --max-keys}). The description
   * may say {@code ${DEFAULT-VALUE}}.
   */
  Setting<T> flag(String flag, String paramLabel, String description) {
    return new Setting<>(name, defaultText, defaultValue, shape, split, reader, check,
        new Flag(flag, paramLabel, description, defaultText), secret);
  }

  /** The same flag defaulting to {@code text} on the command line only; the builder keeps its default. */
  Setting<T> commandLineDefault(String text) {
    Flag f = Objects.requireNonNull(flag, "flag() first");
    return new Setting<>(name, defaultText, defaultValue, shape, split, reader, check,
        new Flag(f.name(), f.paramLabel(), f.description(), text), secret);
  }

  /** The same setting, its value never shown (the configuration's description, and so the log, says {@code ***}). */
  Setting<T> secret() {
    return new Setting<>(name, defaultText, defaultValue, shape, split, reader, check, flag, true);
  }

  /** Whether a flag sets it (a clock, for one, only code can give). */
  boolean onCommandLine() {
    return flag != null;
  }

  /** The value when none is given. */
  T defaultValue() {
    return defaultValue;
  }

  /**
   * {@code value} as the configuration keeps it (lists and maps as unmodifiable copies).
   *
   * @throws IllegalArgumentException naming the setting, for a value it refuses
   */
  T check(@Nullable T value) {
    return check.apply(value);
  }

  /** This setting's value in {@code values}, a map filled through {@link #check}. */
  @SuppressWarnings("unchecked")
  T in(Map<Setting<?>, ?> values) {
    return (T) values.get(this);
  }

  /** {@code value} as the configuration's description shows it: {@code max-keys=500}; an empty optional {@code none}. */
  String shown(Object value) {
    Object plain = value instanceof Optional<?> optional ? optional.map(Object.class::cast).orElse("none") : value;
    return (flag == null ? name : flag.name().substring(2)) + "=" + (secret ? "***" : plain);
  }

  /** Adds this setting's flag, if it has one, to {@code spec}. */
  void addTo(CommandSpec spec) {
    if (flag == null) {
      return;
    }
    OptionSpec.Builder option = OptionSpec.builder(flag.name()).description(flag.description());
    switch (shape) {
      case SWITCH -> option.arity("0").type(boolean.class);
      case REPEATED -> option.paramLabel(flag.paramLabel()).hideParamSyntax(true)
          .type(List.class).auxiliaryTypes(String.class).splitRegex(split);
      case ONCE -> option.paramLabel(flag.paramLabel()).type(String.class).defaultValue(flag.defaultText());
    }
    spec.addOption(option.build());
  }

  /**
   * What the parsed command line in {@code spec} says of this setting, read but not yet checked:
   * the flag's value or the flag's default; null when there is neither. The caller hands it to the
   * configuration's builder, which checks it.
   *
   * @throws IllegalArgumentException naming the flag, for text that does not read
   */
  @Nullable T readFrom(CommandSpec spec) {
    if (flag == null) {
      return null;
    }
    Object given = spec.findOption(flag.name()).getValue();
    if (given == null) {
      return null;
    }
    List<String> texts = given instanceof List<?> list
        ? list.stream().map(String::valueOf).toList()
        : List.of(given.toString());
    return reader.read(flag.name().substring(2), texts);
  }

  private static <T> UnaryOperator<T> refusing(String name, Predicate<T> ok, String rule) {
    return refusing(name, ok, value -> rule + ", was " + value);
  }

  private static <T> UnaryOperator<T> refusing(String name, Predicate<T> ok, Function<T, String> refusal) {
    return value -> {
      if (value == null) {
        throw new IllegalArgumentException(name + ": must not be null");
      }
      if (!ok.test(value)) {
        throw new IllegalArgumentException(name + ": " + refusal.apply(value));
      }
      return value;
    };
  }

  private static int intNumber(String label, String text) {
    long number = wholeNumber(label, text);
    if ((int) number != number) {
      throw new IllegalArgumentException(label + ": '" + text + "' is too large");
    }
    return (int) number;
  }

  private static long wholeNumber(String label, String text) {
    try {
      return Long.parseLong(text.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(label + ": '" + text + "' is not a whole number", e);
    }
  }
}
