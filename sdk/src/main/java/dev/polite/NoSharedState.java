package dev.polite;

/** {@link SharedState#none()}: every key alone, every token free, never a pause. */
enum NoSharedState implements SharedState, SharedKey {
  INSTANCE;

  @Override
  public SharedKey join(String key, Ticker ticker, Runnable onNews) {
    return this;
  }

  @Override
  public long take(double cost, double sendRate, int inFlight, long now) {
    return 0;
  }

  @Override
  public long pauseLeft(long now) {
    return 0;
  }

  @Override
  public int instances() {
    return 1;
  }

  @Override
  public boolean pauseForRefusal() {
    return false;
  }

  @Override
  public void paceLearned(double rate, double burst, boolean advertised, long now) {}

  @Override
  public void paused(long pauseNanos, boolean refused, long now) {}

  @Override
  public void resumed(long now) {}

  @Override
  public void remaining(long remaining, int inFlight, long now) {}

  @Override
  public void leave() {}

  @Override
  public String toString() {
    return "SharedState.none()";
  }
}
