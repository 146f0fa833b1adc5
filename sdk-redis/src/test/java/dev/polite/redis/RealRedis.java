package dev.polite.redis;

import dev.polite.demo.internal.RedisProcess;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A fresh real redis-server for each test, killed after it:
 * {@code @RegisterExtension final RealRedis redis = new RealRedis();}. The states a test
 * {@link #open}s are closed first. Test-only.
 */
final class RealRedis implements BeforeEachCallback, AfterEachCallback {
  private RedisProcess process;
  private final List<RedisSharedState> opened = new ArrayList<>();

  @Override
  public void beforeEach(ExtensionContext context) throws Exception {
    process = RedisProcess.start();
  }

  @Override
  public void afterEach(ExtensionContext context) {
    opened.forEach(RedisSharedState::close);
    opened.clear();
    process.close();
  }

  /** Builds a state, to be closed after the test, before its server is killed. */
  RedisSharedState open(RedisSharedState.Builder builder) {
    RedisSharedState state = builder.build();
    opened.add(state);
    return state;
  }

  /** The server of the test running now. */
  RedisProcess process() {
    return process;
  }
}
