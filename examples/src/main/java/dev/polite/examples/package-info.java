/**
 * The {@code polite-examples} command line, one package per command: {@code compare} (the
 * comparison demo), {@code load} (a load tool), {@code overload} (the overload measurements),
 * {@code zoo} (the zoo of real limiters), {@code lessons} (the reference's lessons),
 * {@code nodes} (many server nodes on one limit) and {@code fleet} (client instances on one
 * budget); {@code clients} holds the clients they compare. This package holds the top of the
 * command line ({@code Main}, {@code PoliteExamplesCommand}, {@code MissingCommand}) and what
 * several commands share ({@code ProgressLine}, {@code HtmlPage}, {@code LocalRedis},
 * {@code Executables}, {@code Pause}).
 *
 * <p>Usage: {@code java -jar examples/target/polite-examples.jar compare}
 *
 * <p>It may import picocli, OkHttp and JSpecify; it imports none of its sub-packages, and no
 * command package may be imported by {@code clients} or by this one.
 */
@NullMarked
package dev.polite.examples;

import org.jspecify.annotations.NullMarked;
