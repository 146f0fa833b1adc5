package dev.polite.examples.lessons;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The options every lesson takes ({@code --help}, {@code --json}) and where it prints: a picocli
 * mixin, so that each lesson declares only its own ({@code nodes} takes them too).
 *
 * <p>Usage: {@code @Mixin LessonOptions options; ... LessonOutput out = options.output();}
 */
public final class LessonOptions {
  @Spec(Spec.Target.MIXEE)
  CommandSpec lesson;

  @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
  boolean help;

  @Option(names = "--json", description = "Print one JSON object per measured thing instead of the lines.")
  boolean json;

  /** Where the lesson prints: its command line's stdout, as lines or JSON rows. */
  public LessonOutput output() {
    return new LessonOutput(lesson.commandLine().getOut(), json);
  }
}
