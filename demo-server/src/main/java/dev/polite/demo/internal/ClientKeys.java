package dev.polite.demo.internal;

import dev.polite.demo.KeyStats;
import java.net.InetAddress;
import java.util.List;

/**
 * Who a request is counted as. An API key beats an address: {@code key:<hash>}
 * ({@link KeyStats#keyOfApiKey}), so the secret itself never reaches the stats, the logs or Redis. Without one, the peer's address: {@code ip:203.0.113.7}, an IPv6 peer by its /64.
 *
 * <p>{@code X-Forwarded-For} is believed only when the connection comes from a trusted proxy, and
 * only the entries our proxies appended: it is read from the right, skipping trusted proxies, and
 * the first address left is the client. Everything to its left was written by the client and
 * could name anyone; trusting the leftmost entry, or the header from an untrusted peer, would let
 * a client pick a fresh key per request. If every entry is a trusted proxy the leftmost is taken;
 * if the entry found is not an IP literal (a proxy we trust wrote garbage) the peer is used.
 */
public final class ClientKeys {
  private final TrustedProxies trusted;

  public ClientKeys(TrustedProxies trusted) {
    this.trusted = trusted;
  }

  /**
   * The key for a request.
   *
   * @param apiKey the API key header's value, or null
   * @param peer the connection's remote address
   * @param forwardedFor every {@code X-Forwarded-For} field line, in order (may be empty)
   */
  public String keyOf(String apiKey, InetAddress peer, List<String> forwardedFor) {
    if (apiKey != null && !apiKey.isBlank()) {
      return KeyStats.keyOfApiKey(apiKey.trim());
    }
    if (forwardedFor.isEmpty() || trusted.isEmpty() || !trusted.contains(peer)) {
      return IpAddress.key(peer);
    }
    String[] hops = String.join(",", forwardedFor).split(",");
    for (int i = hops.length - 1; i >= 0; i--) {
      String hop = hops[i].trim();
      if (hop.isEmpty()) {
        continue;
      }
      InetAddress address = IpAddress.parse(hop);
      if (address == null) {
        return IpAddress.key(peer);
      }
      if (!trusted.contains(address)) {
        return IpAddress.key(address);
      }
    }
    for (String hop : hops) {
      InetAddress address = IpAddress.parse(hop);
      if (address != null) {
        return IpAddress.key(address);
      }
    }
    return IpAddress.key(peer);
  }
}
