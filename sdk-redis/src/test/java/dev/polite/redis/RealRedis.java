package dev.polite.redis;

import dev.polite.demo.internal.RedisProcess;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A fresh real redis-server for each test, killed after it:
 * {@code @RegisterExtension final RealRedis redis = new RealRedis();}. Test-only.
 */
final class RealRedis implements BeforeEachCallback, AfterEachCallback {
  private RedisProcess process;

  @Override
  public void beforeEach(ExtensionContext context) throws Exception {
    process = RedisProcess.start();
  }

  @Override
  public void afterEach(ExtensionContext context) {
    process.close();
  }

  /** The server of the test running now. */
  RedisProcess process() {
    return process;
  }
}
