package dev.polite.examples.compare;

import dev.polite.examples.clients.ClientKind;
import dev.polite.examples.load.RunResult;

/**
 * One row of the comparison: which client, how the table names it, and what it achieved.
 *
 * <p>Usage: {@code new ComparedRun(ClientKind.POLITE, "4. polite", result)}
 *
 * @param kind the client
 * @param label the row's label, numbered as in {@code compare}'s table
 * @param result the run's counts and attempts
 */
record ComparedRun(ClientKind kind, String label, RunResult result) {}
