/**
 * Retries: what polite retries and after how long ({@link dev.polite.internal.retry.RetryRules},
 * the one owner of the decision after an attempt), one attempt's outcome as it judges it
 * ({@link dev.polite.internal.retry.Attempt}), and the per-key retry budget
 * ({@link dev.polite.internal.retry.RetryBudget}, gRPC's retry throttling).
 *
 * <p>May import {@code dev.polite}'s public types, {@code dev.polite.internal} (Nanos),
 * {@code internal.model} (the one rule for what a refusal is, {@code Answer}) and
 * {@code internal.headers} (whether a server says to retry); never {@code internal.call}: the
 * rules decide, the call's run waits. Not public API.
 */
@NullMarked
package dev.polite.internal.retry;

import org.jspecify.annotations.NullMarked;
