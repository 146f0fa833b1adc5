/**
 * Which of one key's budgets each request spends, learned from the answers:
 * {@link dev.polite.internal.budgets.KeyBudgets} keeps the map, by
 * {@link dev.polite.internal.budgets.Route} (a request's method and path, ids folded) and, where
 * the server never names its budgets, by the quotas they report
 * ({@link dev.polite.internal.budgets.QuotaProfile}).
 *
 * <p>May import {@code dev.polite}'s public types only; never another internal room: it names
 * budgets, and the key states that keep them ({@code call}) look them up. Not public API.
 */
@NullMarked
package dev.polite.internal.budgets;

import org.jspecify.annotations.NullMarked;
