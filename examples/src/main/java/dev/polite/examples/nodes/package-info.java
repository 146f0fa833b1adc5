/**
 * {@code polite-examples nodes}: the reference's "Many nodes, one limit" on real nodes. N demo
 * servers per design (each alone, each with limit / N, shared in Redis, synced with Redis every S)
 * get the same open-loop traffic at once, and it prints what each design admits per second beside
 * the reference's numbers. It prints as the lessons do, through their {@code LessonOutput}.
 *
 * <p>It may import the demo server, {@code lessons} (for {@code LessonOutput}) and
 * {@code dev.polite.examples}; no other command package.
 */
@NullMarked
package dev.polite.examples.nodes;

import org.jspecify.annotations.NullMarked;
