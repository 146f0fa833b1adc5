package dev.polite.internal.call;

import dev.polite.CallContext;
import dev.polite.internal.model.KeyModel;
import dev.polite.internal.model.Permit;
import java.util.function.BooleanSupplier;
import org.jspecify.annotations.Nullable;

/**
 * One attempt's way to its permit, step by step: the reservation it holds while it waits for its
 * tokens, and the permit once granted. {@link KeyState#step} moves it on; a thread blocks
 * between steps ({@link KeyState#acquire}), a scheduler does not.
 *
 * <p>Guarded by its key's lock: only {@link KeyState} reads or writes it.
 */
public final class Acquisition {
  final CallContext call;
  final double cost;
  final long waitedBefore;
  KeyModel.@Nullable Reservation reservation;
  long due = Long.MIN_VALUE;
  /** How to wake the attempt early when its reservation is voided while it waits (scheduled). */
  @Nullable Runnable onVoid;
  /** How to wake the attempt when the key signals, while it waits at the closed gate (scheduled). */
  @Nullable Runnable onSignal;
  volatile @Nullable Permit permit; // read without the lock by the attempt's owner
  /** Whether the call now spends another budget of its key: a blocking wait then ends. */
  @Nullable BooleanSupplier moved;

  /**
   * @param waitedBefore what the call had waited before this attempt (its patience's count), so
   *     the attempt reports only its own wait
   */
  public Acquisition(CallContext call, long waitedBefore) {
    this.call = call;
    this.cost = call.cost();
    this.waitedBefore = waitedBefore;
  }

  /**
   * Ends a blocking wait for this attempt's permit ({@link KeyState#acquire} then answers null)
   * once {@code moved} answers true: an answer showed that the call's route spends another budget
   * of its key, whose pause or pace it should wait for instead. Read outside any key's lock.
   */
  public Acquisition movedWhen(BooleanSupplier moved) {
    this.moved = moved;
    return this;
  }

  /** The permit, once {@link KeyState#step} granted it; null before. */
  public @Nullable Permit permit() {
    return permit;
  }
}
