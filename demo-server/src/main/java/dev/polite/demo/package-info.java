/**
 * The polite demo server: a server-side rate limiter that clients are measured against.
 *
 * <p>Usage: {@code try (DemoServer server = DemoServer.builder().limit(5).window(Duration.ofSeconds(1)).start()) { ... server.url() ... }}
 */
@NullMarked
package dev.polite.demo;

import org.jspecify.annotations.NullMarked;
