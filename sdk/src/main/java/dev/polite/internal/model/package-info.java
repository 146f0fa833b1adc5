/**
 * One key's model: what polite knows about a rate-limit key, what it allows now, and what an
 * answer teaches it. {@link dev.polite.internal.model.KeyModel} is the script, thread-free and
 * driven by the clock readings passed in (a simulation runs the very code users run); each part
 * of a limit's shape is its own small class beside it: the pace the server advertises
 * ({@link dev.polite.internal.model.AdvertisedPace}, {@link dev.polite.internal.model.InferredWindow},
 * {@link dev.polite.internal.model.SlowerPace}) or the key discovers
 * ({@link dev.polite.internal.model.DiscoveredPace}, {@link dev.polite.internal.model.AimdController},
 * {@link dev.polite.internal.model.AdmittedRate}, {@link dev.polite.internal.model.SendRateMeter}),
 * a window a silent server showed ({@link dev.polite.internal.model.DiscoveredWindow}), the window
 * of calls in flight ({@link dev.polite.internal.model.InFlightWindow}), the pause
 * ({@link dev.polite.internal.model.KeyPause}, {@link dev.polite.internal.model.RefusalRun},
 * {@link dev.polite.internal.model.DoubtedDelay}), the server's counts
 * ({@link dev.polite.internal.model.ServerCount}, {@link dev.polite.internal.model.CountedBudget}),
 * the key's calls ({@link dev.polite.internal.model.CallLedger}, {@link dev.polite.internal.model.Permit}),
 * and what one answer says, decided once ({@link dev.polite.internal.model.Answer}).
 *
 * <p>May import {@code dev.polite}'s public types and {@code dev.polite.internal} (Nanos); never
 * another internal room ({@code call}, {@code retry}, {@code budgets}, {@code listening},
 * {@code headers}): the model knows no lock, no waiting and no retry. Not thread-safe: the key's lock
 * guards it (or a simulation's one thread). Not public API.
 */
@NullMarked
package dev.polite.internal.model;

import org.jspecify.annotations.NullMarked;
