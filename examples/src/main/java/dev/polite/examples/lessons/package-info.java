/**
 * The reference text's lessons, runnable: {@code polite-examples lessons <name>}. Each lesson
 * runs on real parts (the demo server's limiter classes, the demo server itself, a real
 * {@code redis-server}) and prints its numbers beside the reference's.
 */
@NullMarked
package dev.polite.examples.lessons;

import org.jspecify.annotations.NullMarked;
