/**
 * polite's internals: not API, may change in any release. None of these packages is exported
 * from the module. Each holds one concern, so that a file's room follows from its name:
 * <ul>
 *   <li>{@link dev.polite.internal.model}: one key's model, thread-free and clock-driven, and
 *       the parts of a limit's shape it reads answers into (pace, pause, windows, counts);
 *   <li>{@link dev.polite.internal.budgets}: which of a key's budgets a request spends;
 *   <li>{@link dev.polite.internal.retry}: what is retried, after how long, and the retry budget;
 *   <li>{@link dev.polite.internal.call}: a call's way to its permit and its patience: the
 *       concurrent shell around a key's model, where calls wait, and the map of keys;
 *   <li>{@link dev.polite.internal.listening}: the user's listeners, guarded;
 *   <li>{@link dev.polite.internal.headers}: the rate-limit header dialects.
 * </ul>
 *
 * <p>This package itself holds what every room shares: {@link dev.polite.internal.Nanos}
 * (saturating nanosecond arithmetic) and {@link dev.polite.internal.Origin} (a URL's origin as
 * key text). It imports nothing of polite's.
 *
 * <p>The rooms read top-down, with no circle: {@code call} may use {@code model},
 * {@code budgets} and {@code retry}; {@code retry} may use {@code model} and {@code headers};
 * {@code model}, {@code budgets}, {@code listening} and {@code headers} use no other room. Every
 * room may use this package and {@code dev.polite}'s public types; none imports an HTTP engine.
 * {@code InternalRoomsTest} holds the code to these rules.
 */
@NullMarked
package dev.polite.internal;

import org.jspecify.annotations.NullMarked;
