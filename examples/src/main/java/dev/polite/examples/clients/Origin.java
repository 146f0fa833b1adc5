package dev.polite.examples.clients;

import okhttp3.HttpUrl;

/**
 * A target's origin, host and port: what one {@link CountingRelay} port forwards to, and the
 * {@code Host} the client would have sent the target itself.
 *
 * @param host the target's host, as the URL names it (an IPv6 address without brackets)
 * @param port the target's port
 */
record Origin(String host, int port) {
  static Origin of(HttpUrl url) {
    return new Origin(url.host(), url.port());
  }

  /** The {@code Host} the client would have sent to the target itself. */
  String hostHeader() {
    String name = host.indexOf(':') >= 0 ? "[" + host + "]" : host;
    return port == 80 ? name : name + ":" + port;
  }
}
