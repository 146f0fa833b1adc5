package dev.polite.demo.internal;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.regex.Pattern;

/**
 * Parses IP literals without ever touching DNS, and turns an address into the key it is counted
 * under: an IPv4 address as itself, an IPv6 address by its /64 (a home or a cloud server is
 * normally given a whole /64, so per-address IPv6 keys let one client use a new key per request).
 * IPv4-mapped IPv6 addresses count as their IPv4 address.
 */
final class IpAddress {
  private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");
  private static final Pattern IPV6 = Pattern.compile("[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*");

  private IpAddress() {}

  /**
   * Parses an IP literal, tolerating {@code [v6]}, {@code [v6]:port}, {@code v4:port} and a
   * {@code %zone}; returns null for anything else (host names are never resolved).
   */
  static InetAddress parse(String text) {
    String s = text.trim();
    if (s.startsWith("[")) {
      int close = s.indexOf(']');
      if (close < 0) {
        return null;
      }
      s = s.substring(1, close);
    } else if (s.indexOf(':') > 0 && s.indexOf(':') == s.lastIndexOf(':') && s.indexOf('.') > 0) {
      s = s.substring(0, s.indexOf(':')); // v4:port
    }
    int zone = s.indexOf('%');
    if (zone >= 0) {
      s = s.substring(0, zone);
    }
    if (IPV4.matcher(s).matches()) {
      for (String part : s.split("\\.")) {
        if (Integer.parseInt(part) > 255) {
          return null;
        }
      }
    } else if (!IPV6.matcher(s).matches()) {
      return null;
    }
    try {
      return InetAddress.getByName(s); // a literal by now: no lookup happens
    } catch (UnknownHostException | IllegalArgumentException e) {
      return null;
    }
  }

  /** The key an address is counted under: {@code ip:203.0.113.7} or {@code ip:2001:db8:1:2::/64}. */
  static String key(InetAddress address) {
    byte[] bytes = address.getAddress();
    if (bytes.length == 16 && isV4Mapped(bytes)) {
      return "ip:" + (bytes[12] & 0xff) + "." + (bytes[13] & 0xff) + "." + (bytes[14] & 0xff) + "."
          + (bytes[15] & 0xff);
    }
    if (bytes.length == 4) {
      return "ip:" + address.getHostAddress();
    }
    StringBuilder key = new StringBuilder("ip:");
    for (int i = 0; i < 8; i += 2) {
      key.append(Integer.toHexString(((bytes[i] & 0xff) << 8) | (bytes[i + 1] & 0xff))).append(':');
    }
    return key.append(":/64").toString();
  }

  /** The address as the key's bytes (an IPv4-mapped address as 4 bytes). */
  static byte[] canonicalBytes(InetAddress address) {
    byte[] bytes = address.getAddress();
    if (bytes.length == 16 && isV4Mapped(bytes)) {
      return new byte[] {bytes[12], bytes[13], bytes[14], bytes[15]};
    }
    return bytes;
  }

  private static boolean isV4Mapped(byte[] b) {
    for (int i = 0; i < 10; i++) {
      if (b[i] != 0) {
        return false;
      }
    }
    return (b[10] & 0xff) == 0xff && (b[11] & 0xff) == 0xff;
  }
}
