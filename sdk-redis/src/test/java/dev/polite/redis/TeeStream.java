package dev.polite.redis;

import java.io.IOException;
import java.io.OutputStream;

/** Writes to two streams: the console still shows what a test captures. Test-only. */
final class TeeStream extends OutputStream {
  private final OutputStream first;
  private final OutputStream second;

  TeeStream(OutputStream first, OutputStream second) {
    this.first = first;
    this.second = second;
  }

  @Override
  public synchronized void write(int b) throws IOException {
    first.write(b);
    second.write(b);
  }

  @Override
  public synchronized void write(byte[] b, int off, int len) throws IOException {
    first.write(b, off, len);
    second.write(b, off, len);
  }

  @Override
  public synchronized void flush() throws IOException {
    first.flush();
    second.flush();
  }
}
