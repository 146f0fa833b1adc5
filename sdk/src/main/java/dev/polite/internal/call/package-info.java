/**
 * A call's way to its permit, and its patience: {@link dev.polite.internal.call.KeyState}, the
 * concurrent shell around one key's model (one lock, the gate, the waiting), moves an attempt
 * ({@link dev.polite.internal.call.Acquisition}) towards its permit one step at a time, so that
 * a blocking caller and a scheduler take the same steps;
 * {@link dev.polite.internal.call.Patience} is how long the call is still willing to wait, and
 * the only place it waits; {@link dev.polite.internal.call.KeyStates} is the bounded map of keys;
 * {@link dev.polite.internal.call.WouldHold} logs what enforcing would do, in observation mode.
 * The runs themselves ({@code CallRun}, {@code AsyncRun}) live in {@code dev.polite}, beside the
 * API their adapters call.
 *
 * <p>May import {@code dev.polite}'s public types, {@code dev.polite.internal} (Nanos),
 * {@code internal.model}, {@code internal.budgets} and {@code internal.retry} (a key's retry
 * budget); never {@code internal.headers} (signals come parsed) nor {@code internal.listening}
 * (the listener comes from the config). Thread-safe where a class says so. Not public API.
 */
@NullMarked
package dev.polite.internal.call;

import org.jspecify.annotations.NullMarked;
