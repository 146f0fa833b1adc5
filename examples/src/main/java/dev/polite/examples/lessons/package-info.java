/**
 * The reference text's lessons, runnable: {@code polite-examples lessons <name>}. Each lesson
 * runs on real parts (the demo server's limiter classes, the demo server itself, a real
 * {@code redis-server}) and prints its numbers beside the reference's.
 *
 * <p>It may import polite (the core, sdk-okhttp), the demo server and, for the limiter classes the
 * lessons run on, {@code dev.polite.demo.internal}; Jedis, Jackson and {@code dev.polite.examples}; no
 * other command package.
 */
@NullMarked
package dev.polite.examples.lessons;

import org.jspecify.annotations.NullMarked;
