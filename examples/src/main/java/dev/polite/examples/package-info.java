/**
 * The comparison demo and the {@code load} command line: four ways to call a rate-limited API,
 * measured side by side against the in-process demo server.
 *
 * <p>Usage: {@code java -jar examples/target/polite-examples.jar compare}
 */
@NullMarked
package dev.polite.examples;

import org.jspecify.annotations.NullMarked;
