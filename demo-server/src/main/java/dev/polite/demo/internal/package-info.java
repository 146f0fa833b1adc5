/** Internals of the demo server: algorithms, stores, keys, headers and HTTP handlers. Not API. */
@NullMarked
package dev.polite.demo.internal;

import org.jspecify.annotations.NullMarked;
