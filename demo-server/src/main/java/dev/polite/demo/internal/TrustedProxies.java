package dev.polite.demo.internal;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * The addresses of our own load balancers and CDN, as single addresses or CIDR ranges
 * ({@code 10.0.0.5}, {@code 10.0.0.0/8}, {@code ::1}, {@code 2001:db8::/32}). Only a connection
 * from one of these may tell us, through {@code X-Forwarded-For}, who the client is.
 */
public final class TrustedProxies {
  private final List<byte[]> networks = new ArrayList<>();
  private final List<Integer> prefixes = new ArrayList<>();

  /**
   * @throws IllegalArgumentException naming {@code trustedProxies} for an entry that is not an IP
   *     literal or CIDR range
   */
  public TrustedProxies(List<String> specs) {
    for (String spec : specs) {
      String s = spec.trim();
      if (s.isEmpty()) {
        continue;
      }
      int slash = s.indexOf('/');
      InetAddress address = IpAddress.parse(slash < 0 ? s : s.substring(0, slash));
      if (address == null) {
        throw new IllegalArgumentException(
            "trustedProxies: '" + spec + "' is not an IP address or CIDR range");
      }
      byte[] bytes = IpAddress.canonicalBytes(address);
      int prefix = bytes.length * 8;
      if (slash >= 0) {
        try {
          prefix = Integer.parseInt(s.substring(slash + 1));
        } catch (NumberFormatException e) {
          prefix = -1;
        }
        if (prefix < 0 || prefix > bytes.length * 8) {
          throw new IllegalArgumentException("trustedProxies: '" + spec + "' has a bad prefix length");
        }
      }
      networks.add(bytes);
      prefixes.add(prefix);
    }
  }

  /** Whether no proxy is trusted (then X-Forwarded-For is never read). */
  public boolean isEmpty() {
    return networks.isEmpty();
  }

  /** Whether {@code address} is one of ours. */
  public boolean contains(InetAddress address) {
    byte[] bytes = IpAddress.canonicalBytes(address);
    for (int i = 0; i < networks.size(); i++) {
      byte[] network = networks.get(i);
      if (network.length == bytes.length && matches(network, bytes, prefixes.get(i))) {
        return true;
      }
    }
    return false;
  }

  private static boolean matches(byte[] network, byte[] address, int prefix) {
    int full = prefix / 8;
    for (int i = 0; i < full; i++) {
      if (network[i] != address[i]) {
        return false;
      }
    }
    int rest = prefix % 8;
    if (rest == 0) {
      return true;
    }
    int mask = (0xff << (8 - rest)) & 0xff;
    return (network[full] & mask) == (address[full] & mask);
  }
}
