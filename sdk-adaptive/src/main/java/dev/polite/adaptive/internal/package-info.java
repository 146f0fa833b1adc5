/**
 * sdk-adaptive's internals, not API, may change in any release: the sliding window of request
 * and accept counts the throttle decides by ({@code SlidingCounts}) and the CUBIC rate controller
 * ({@code CubicController}). It may import polite's public API and JSpecify; it may not import
 * {@code dev.polite.adaptive} above it, nor any HTTP engine.
 */
@NullMarked
package dev.polite.adaptive.internal;

import org.jspecify.annotations.NullMarked;
