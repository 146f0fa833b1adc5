package dev.polite.demo.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How a request's key is chosen, including a client that tries to choose its own. */
class ClientKeysTest {
  // Our proxies: our load balancer, another of ours, and loopback.
  private final ClientKeys keys =
      new ClientKeys(new TrustedProxies(List.of("127.0.0.1", "10.0.0.5", "198.51.100.2")));

  private static InetAddress ip(String literal) {
    return IpAddress.parse(literal);
  }

  @Test
  void viaOurLoadBalancerTheClientIsTheEntryItAppended() {
    assertThat(keys.keyOf(null, ip("10.0.0.5"), List.of("203.0.113.7"))).isEqualTo("ip:203.0.113.7");
  }

  @Test
  void aDirectCallerIsItsSocketAddressWhateverItWrites() {
    assertThat(keys.keyOf(null, ip("203.0.113.9"), List.of("1.2.3.4"))).isEqualTo("ip:203.0.113.9");
  }

  @Test
  void spoofedLeftmostEntriesNeverChooseTheKey() {
    for (int i = 0; i < 5; i++) {
      String spoof = "6.6.6." + i + ", 7.7.7." + i;
      assertThat(keys.keyOf(null, ip("10.0.0.5"), List.of(spoof + ", 203.0.113.7")))
          .isEqualTo("ip:203.0.113.7");
    }
  }

  @Test
  void readsFromTheRightSkippingEveryTrustedProxy() {
    assertThat(keys.keyOf(null, ip("10.0.0.5"), List.of("6.6.6.6, 203.0.113.7, 198.51.100.2")))
        .isEqualTo("ip:203.0.113.7");
    // split over several field lines, joined in order
    assertThat(keys.keyOf(null, ip("10.0.0.5"), List.of("6.6.6.6, 203.0.113.7", "198.51.100.2")))
        .isEqualTo("ip:203.0.113.7");
  }

  @Test
  void onlyTrustedHopsMeansTheLeftmost() {
    assertThat(keys.keyOf(null, ip("10.0.0.5"), List.of("198.51.100.2, 10.0.0.5"))).isEqualTo("ip:198.51.100.2");
  }

  @Test
  void garbageWhereOurProxyWroteFallsBackToThePeer() {
    assertThat(keys.keyOf(null, ip("10.0.0.5"), List.of("203.0.113.7, evil.example"))).isEqualTo("ip:10.0.0.5");
    assertThat(keys.keyOf(null, ip("10.0.0.5"), List.of("999.1.1.1"))).isEqualTo("ip:10.0.0.5");
  }

  @Test
  void noHeaderOrNoTrustedProxiesMeansThePeer() {
    assertThat(keys.keyOf(null, ip("10.0.0.5"), List.of())).isEqualTo("ip:10.0.0.5");
    ClientKeys trustsNobody = new ClientKeys(new TrustedProxies(List.of()));
    assertThat(trustsNobody.keyOf(null, ip("127.0.0.1"), List.of("203.0.113.7"))).isEqualTo("ip:127.0.0.1");
  }

  @Test
  void anApiKeyBeatsTheAddressAndIsNeverShownVerbatim() {
    String key = keys.keyOf("sk_live_secret", ip("203.0.113.9"), List.of());
    assertThat(key).startsWith("key:").hasSize(4 + 16).doesNotContain("secret");
    assertThat(keys.keyOf("sk_live_secret", ip("10.0.0.5"), List.of("1.2.3.4"))).isEqualTo(key);
    assertThat(keys.keyOf("sk_live_other", ip("203.0.113.9"), List.of())).isNotEqualTo(key);
  }

  @Test
  void ipv6IsKeyedByItsSlash64() {
    String a = keys.keyOf(null, ip("2001:db8:1:2::1"), List.of());
    String b = keys.keyOf(null, ip("2001:db8:1:2:ffff:ffff:ffff:ffff"), List.of());
    String other = keys.keyOf(null, ip("2001:db8:1:3::1"), List.of());
    assertThat(a).isEqualTo("ip:2001:db8:1:2::/64").isEqualTo(b);
    assertThat(other).isNotEqualTo(a);
    // and through a proxy, in brackets with a port
    assertThat(keys.keyOf(null, ip("10.0.0.5"), List.of("[2001:db8:1:2::9]:4711"))).isEqualTo(a);
  }

  @Test
  void ipv4MappedAddressesCountAsIpv4() {
    assertThat(keys.keyOf(null, ip("::ffff:203.0.113.9"), List.of())).isEqualTo("ip:203.0.113.9");
  }

  @Test
  void trustedRangesMatchByPrefix() {
    ClientKeys cidr = new ClientKeys(new TrustedProxies(List.of("10.0.0.0/8", "fd00::/8")));
    assertThat(cidr.keyOf(null, ip("10.9.8.7"), List.of("203.0.113.7, 10.1.1.1"))).isEqualTo("ip:203.0.113.7");
    assertThat(cidr.keyOf(null, ip("11.0.0.1"), List.of("203.0.113.7"))).isEqualTo("ip:11.0.0.1");
    assertThat(cidr.keyOf(null, ip("fd12::1"), List.of("203.0.113.7"))).isEqualTo("ip:203.0.113.7");
  }

  @Test
  void hostNamesAreNeverResolved() {
    assertThat(IpAddress.parse("localhost")).isNull();
    assertThat(IpAddress.parse("example.com")).isNull();
    assertThatThrownBy(() -> new TrustedProxies(List.of("proxy.internal")))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("trustedProxies");
  }
}
