package dev.polite.internal;

import dev.polite.PoliteListener;
import dev.polite.RateController;
import dev.polite.Ticker;

/**
 * What every key of one interceptor shares: its clock, listener and starting assumptions.
 *
 * @param startingRate requests per second before the server says anything; infinite for none
 * @param startingBurst the starting bucket's capacity
 * @param cautiousStart at most one call in flight until the key's first answer, then a window
 *     that grows with each answer until the server says something about its limit
 * @param maxWaitNanos the most one call may wait in all; a pause longer than this is re-verified
 *     by one probe call after this long
 * @param backoffBaseNanos the first pause after a refusal that names no delay, doubling with each
 *     such refusal in a row
 * @param backoffCapNanos the longest such pause
 */
public record KeyConfig(
    Ticker ticker,
    PoliteListener listener,
    RateController.Factory controllers,
    double startingRate,
    double startingBurst,
    boolean cautiousStart,
    double retryBudgetTokens,
    double retryBudgetRatio,
    long maxWaitNanos,
    long backoffBaseNanos,
    long backoffCapNanos) {}
