/**
 * The {@code polite-examples} command line: the comparison demo ({@code compare}), a load tool
 * ({@code load}), the overload measurements ({@code overload}, simulations in the
 * {@code overload} package) and the zoo of real limiters ({@code zoo}), each measuring clients of
 * a rate-limited API side by side.
 *
 * <p>Usage: {@code java -jar examples/target/polite-examples.jar compare}
 */
@NullMarked
package dev.polite.examples;

import org.jspecify.annotations.NullMarked;
