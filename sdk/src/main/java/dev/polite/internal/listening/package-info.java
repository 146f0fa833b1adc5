/**
 * Listening: the user's {@link dev.polite.PoliteListener}s, each heard in turn and each guarded
 * ({@link dev.polite.internal.listening.SafeListener}), so that a bug in one cannot fail a call.
 *
 * <p>May import {@code dev.polite}'s public types only; never another internal room. Not public
 * API.
 */
@NullMarked
package dev.polite.internal.listening;

import org.jspecify.annotations.NullMarked;
