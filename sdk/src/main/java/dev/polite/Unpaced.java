package dev.polite;

/** The controller of {@link RateController#none()}: it never sets a pace. Stateless. */
enum Unpaced implements RateController {
  INSTANCE;

  static final RateController.Factory FACTORY = () -> INSTANCE;

  @Override
  public double rate() {
    return Double.POSITIVE_INFINITY;
  }

  @Override
  public void onSuccess(long nowNanos, double measuredSendRate) {}

  @Override
  public void onRejection(long nowNanos, double admittedRate) {}
}
