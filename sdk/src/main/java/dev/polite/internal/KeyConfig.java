package dev.polite.internal;

import dev.polite.PoliteListener;
import dev.polite.RateController;
import dev.polite.Ticker;

/**
 * What every key of one interceptor shares: its clock, listener and starting assumptions.
 *
 * @param startingRate requests per second before the server says anything; infinite for none
 * @param startingBurst the starting bucket's capacity
 * @param cautiousStart at most one call in flight until the key's first answer
 */
public record KeyConfig(
    Ticker ticker,
    PoliteListener listener,
    RateController.Factory controllers,
    double startingRate,
    double startingBurst,
    boolean cautiousStart,
    double retryBudgetTokens,
    double retryBudgetRatio) {}
