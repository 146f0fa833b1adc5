package dev.polite.internal.retry;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RetryBudgetTest {
  @Test
  void followsTheGrpcA6TestVector() {
    RetryBudget budget = new RetryBudget(10, 0.1);
    for (int i = 1; i <= 4; i++) {
      assertThat(budget.onFailureMayRetry()).as("failure %d", i).isTrue();
    }
    assertThat(budget.onFailureMayRetry()).as("failure 5 leaves 5, not above 5").isFalse();
    budget.onSuccess();
    assertThat(budget.tokens()).isCloseTo(5.1, org.assertj.core.data.Offset.offset(1e-9));
    assertThat(budget.onFailureMayRetry()).as("4.1").isFalse();
    int successes = 0;
    while (budget.tokens() - 1 <= 5) {
      budget.onSuccess();
      successes++;
    }
    assertThat(successes).isBetween(19, 21); // from 4.1 back above 6, a tenth at a time
    assertThat(budget.onFailureMayRetry()).isTrue();
  }

  @Test
  void neverLeavesItsRange() {
    RetryBudget budget = new RetryBudget(3, 1);
    for (int i = 0; i < 10; i++) {
      budget.onFailureMayRetry();
    }
    assertThat(budget.tokens()).isZero();
    for (int i = 0; i < 10; i++) {
      budget.onSuccess();
    }
    assertThat(budget.tokens()).isEqualTo(3);
  }
}
