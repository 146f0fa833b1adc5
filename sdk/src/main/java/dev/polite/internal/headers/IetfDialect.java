package dev.polite.internal.headers;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The IETF {@code draft-ietf-httpapi-ratelimit-headers} fields in every era, told apart by shape
 * as the drafts' own examples need:
 *
 * <ul>
 *   <li>era E (-08 to -11, dialect {@code ietf-draft-11}): {@code RateLimit} and
 *       {@code RateLimit-Policy} are Lists of Items named by a String or a Token, with {@code r}/
 *       {@code t} and {@code q}/{@code w}/{@code qu}/{@code pk}; items pair up by name and
 *       partition key. The {@code Beta-} prefixed pair Atlassian sends reads the same way
 *       ({@code ietf-draft-11-beta});
 *   <li>era D (-07, {@code ietf-draft-07}): {@code RateLimit} is a Dictionary
 *       {@code limit=, remaining=, reset=}. A value that parses as a List whose every item carries
 *       {@code r} or {@code t} is era E, checked first, because a Token name such as
 *       {@code quota;t=1} also parses as a Dictionary;
 *   <li>eras A to C ({@code ietf-polli-00}, {@code ietf-draft-03}, {@code ietf-draft-06}):
 *       {@code RateLimit-Limit/-Remaining/-Reset}, the limit a List whose first member is the
 *       "expiring limit" and whose further members are quota policies ({@code 10;w=1}, polli-00's
 *       {@code window=}), or a separate {@code RateLimit-Policy} of Integer items. The remaining
 *       count and reset belong to the policy whose quota equals the expiring limit. A reset that is
 *       a date is polli-00's;
 *   <li>GitLab ({@code gitlab}) reuses those names with an epoch reset: recognised by its sibling
 *       fields ({@code RateLimit-Observed}, {@code -ResetTime}, {@code -Name}) or by a reset of
 *       epoch magnitude; its limit is per minute.
 * </ul>
 *
 * <p>Structured fields are joined over all their lines and parsed once; a malformed one is ignored
 * and flagged (so is one with an integer over 15 digits, as RFC 9651 requires); a member with a
 * negative quota, remaining, window or reset is dropped. A reset
 * over a year or a window of 0 or over a year is only that field dropped, flagged ({@link
 * Plausible}): the member's other numbers stand.
 */
final class IetfDialect {
  static final String ERA_E = "ietf-draft-11";
  static final String ERA_E_BETA = "ietf-draft-11-beta";
  static final String ERA_D = "ietf-draft-07";
  static final String ERA_C = "ietf-draft-06";
  static final String ERA_B = "ietf-draft-03";
  static final String ERA_A = "ietf-polli-00";
  static final String GITLAB = "gitlab";

  private IetfDialect() {}

  static void read(Reading r) {
    ResponseHeaders h = r.headers;
    List<SfMember> integerPolicies = null;
    if (h.has(Field.RATELIMIT) || h.has(Field.RATELIMIT_POLICY)) {
      integerPolicies = structured(r, Field.RATELIMIT, Field.RATELIMIT_POLICY, ERA_E);
    }
    if (h.has(Field.BETA_RATELIMIT) || h.has(Field.BETA_RATELIMIT_POLICY)) {
      structured(r, Field.BETA_RATELIMIT, Field.BETA_RATELIMIT_POLICY, ERA_E_BETA);
    }
    if (h.has(Field.RATELIMIT_LIMIT) || h.has(Field.RATELIMIT_REMAINING) || h.has(Field.RATELIMIT_RESET)
        || h.has(Field.RATELIMIT_RESETTIME)) {
      separateFields(r, integerPolicies);
    } else if (integerPolicies != null) {
      // era C's policy field alone: quotas without a live count
      List<Quota> quotas = integerQuotas(r, integerPolicies);
      for (Quota q : quotas) q.addTo(r, ERA_C);
    }
  }

  /**
   * Reads the combined field and its policy field; returns the policy field's Integer items, which
   * belong to the era the separate fields or the Dictionary settle, when it has such items.
   */
  private static @Nullable List<SfMember> structured(Reading r, Field limitField, Field policyField, String eraE) {
    String limit = r.headers.joined(limitField);
    String policy = r.headers.joined(policyField);
    List<SfMember> policies = null;
    if (policy != null) {
      policies = RecentPolicyFields.list(policy);
      if (policies == null) r.anomaly();
    }
    boolean named = policies != null && !policies.isEmpty() && policies.get(0).text() != null;
    if (limit != null) {
      if (CommonRateLimit.matches(limit)) { // the usual answer: its items read without members
        readCommonEraE(r, limit, named ? policies : null, eraE);
        return named ? null : policies;
      }
      List<SfMember> items = StructuredFields.list(limit);
      if (items != null && isEraE(items)) {
        readEraE(r, items, named ? policies : null, eraE);
        return named ? null : policies;
      }
      List<SfMember> dict = StructuredFields.dictionary(limit);
      if (dict != null && isEraD(dict)) {
        readEraD(r, dict, named ? null : policies);
        return null;
      }
      r.anomaly();
    }
    if (named) {
      readEraE(r, List.of(), policies, eraE);
      return null;
    }
    return policies;
  }

  static boolean isEraE(List<SfMember> items) {
    if (items.isEmpty()) return false;
    for (int k = 0, n = items.size(); k < n; k++) {
      SfMember m = items.get(k);
      if (m.text() == null || !(m.hasParam("r") || m.hasParam("t"))) return false;
    }
    return true;
  }

  private static boolean isEraD(List<SfMember> dict) {
    for (SfMember m : dict) {
      String k = m.key();
      if ("limit".equals(k) || "remaining".equals(k) || "reset".equals(k)) return true;
    }
    return false;
  }

  /** Era E, its {@code RateLimit} items read by the strict parser. */
  static void readEraE(Reading r, List<SfMember> items, @Nullable List<SfMember> policies, String dialect) {
    List<Quota> quotas = policyQuotas(r, policies);
    Map<String, Named> index = null;
    for (int k = 0, n = items.size(); k < n; k++) {
      SfMember item = items.get(k);
      String name = item.text();
      long remaining = -1;
      long reset = -1;
      long q = -1; // the draft's own appendix puts q here
      String pk = null;
      List<SfMember> params = item.params();
      for (int j = 0, m = params.size(); j < m; j++) {
        SfMember param = params.get(j);
        switch (Objects.requireNonNull(param.key())) {
          case "r": remaining = nonNegative(r, param.value()); break;
          case "t": reset = nonNegative(r, param.value()); break;
          case "q": q = nonNegative(r, param.value()); break;
          case "pk": pk = partitionKey(param.value()); break;
          default: break;
        }
      }
      if (name == null || remaining == BAD || reset == BAD || q == BAD) continue;
      if (index == null && quotas.size() > StructuredFields.SCAN) index = Named.index(quotas);
      Quota quota = index == null ? find(quotas, name, pk) : Named.find(index, quotas, name, pk);
      if (quota == null) {
        quota = new Quota(name);
        quota.partitionKey = pk;
        quotas.add(quota);
        if (index != null) Named.add(index, quota, quotas.size() - 1);
      }
      quota.report(r, remaining, reset, q);
    }
    finishEraE(r, quotas, dialect);
  }

  /** Era E, its {@code RateLimit} items of the common shape ({@link CommonRateLimit}). */
  static void readCommonEraE(Reading r, String limit, @Nullable List<SfMember> policies, String dialect) {
    List<Quota> quotas = policyQuotas(r, policies);
    CommonRateLimit.read(r, limit, quotas);
    finishEraE(r, quotas, dialect);
  }

  /** The quotas a named policy field states, before any item reports on them. */
  private static List<Quota> policyQuotas(Reading r, @Nullable List<SfMember> policies) {
    // As many as the policies name (most answers: one), room for one more a report may add.
    List<Quota> quotas = new ArrayList<>(policies == null ? 1 : Math.min(policies.size(), 16) + 1);
    if (policies != null) {
      for (int k = 0, n = policies.size(); k < n; k++) {
        SfMember p = policies.get(k);
        String name = p.text();
        if (name == null) {
          r.anomaly();
          continue;
        }
        // One pass over the parameters, each told by its name (a parse keeps one per name), not
        // a lookup per name asked: a member has two or three of the four.
        long q = -1;
        long w = -1;
        Object unit = null;
        String pk = null;
        List<SfMember> params = p.params();
        for (int j = 0, m = params.size(); j < m; j++) {
          SfMember param = params.get(j);
          switch (Objects.requireNonNull(param.key())) {
            case "q": q = nonNegative(r, param.value()); break;
            case "w": w = nonNegative(r, param.value()); break;
            case "qu": unit = param.value(); break;
            case "pk": pk = partitionKey(param.value()); break;
            default: break;
          }
        }
        if (q == BAD || w == BAD) continue;
        Quota quota = new Quota(name);
        quota.quota = q;
        quota.windowSeconds(r, w);
        if (unit instanceof String) quota.unit = (String) unit;
        else if (unit instanceof SfMember.Token) quota.unit = ((SfMember.Token) unit).text();
        quota.partitionKey = pk;
        quotas.add(quota);
      }
    }
    return quotas;
  }

  private static void finishEraE(Reading r, List<Quota> quotas, String dialect) {
    for (int k = 0, n = quotas.size(); k < n; k++) quotas.get(k).addTo(r, dialect);
    if (r.bucket() == null && !quotas.isEmpty()) r.bucket(budgetOf(quotas));
    r.recognised(dialect);
  }

  /**
   * The budget an answer counts against, as its named policies tell it: their names (with their
   * partition keys), sorted, so that one server's answers name one budget whatever their order.
   * A server whose routes count against different budgets names different policies for them.
   */
  private static String budgetOf(List<Quota> quotas) {
    if (quotas.size() == 1) { // most answers name one policy: its name, not a sorted join of one
      Quota only = quotas.get(0);
      return only.partitionKey == null ? only.name : only.name + ";pk=" + only.partitionKey;
    }
    List<String> names = new ArrayList<>(quotas.size());
    for (Quota q : quotas) {
      names.add(q.partitionKey == null ? q.name : q.name + ";pk=" + q.partitionKey);
    }
    names.sort(null);
    return String.join(",", names);
  }

  private static void readEraD(Reading r, List<SfMember> dict, @Nullable List<SfMember> policies) {
    long limit = -1;
    long remaining = -1;
    long reset = -1;
    for (SfMember m : dict) {
      String key = m.key();
      if (!"limit".equals(key) && !"remaining".equals(key) && !"reset".equals(key)) continue;
      long v = nonNegative(r, m.value());
      if (v == BAD) return;
      switch (key) {
        case "limit": limit = v; break;
        case "remaining": remaining = v; break;
        case "reset": reset = v; break;
        default: break;
      }
    }
    List<Quota> quotas = policies == null ? new ArrayList<>(1) : integerQuotas(r, policies);
    long resetMillis = reset < 0 ? -1 : r.kept(Plausible.delaySeconds(reset));
    Quota.attachExpiring(quotas, "", limit, remaining, resetMillis);
    for (Quota q : quotas) q.addTo(r, ERA_D);
    r.recognised(ERA_D);
  }

  private static void separateFields(Reading r, @Nullable List<SfMember> policies) {
    ResponseHeaders h = r.headers;
    boolean gitlab = h.has(Field.RATELIMIT_OBSERVED) || h.has(Field.RATELIMIT_RESETTIME) || h.has(Field.RATELIMIT_NAME);
    String dialect = ERA_C;
    List<Quota> quotas = policies == null ? new ArrayList<>(2) : integerQuotas(r, policies);
    long limit = -1;
    String limitField = h.joined(Field.RATELIMIT_LIMIT);
    if (limitField != null) {
      List<SfMember> list = StructuredFields.list(limitField);
      if (list != null && !list.isEmpty() && list.get(0).value() instanceof Long) {
        limit = Math.max(-1, nonNegative(r, list.get(0).value()));
        // the policies' quotas, once there are more than a scan's worth: each bare number is
        // looked up in one step, not by a scan of every policy before it
        Set<Long> known = null;
        for (int k = 1; k < list.size(); k++) {
          SfMember m = list.get(k);
          if (m.hasParam("window")) dialect = ERA_A;
          else if (dialect == ERA_C) dialect = ERA_B;
          Quota q = integerQuota(r, m);
          if (q == null) continue;
          if (q.windowMillis > 0) {
            quotas.add(q);
            if (known != null) known.add(q.quota);
            continue;
          }
          if (known == null && quotas.size() > StructuredFields.SCAN) {
            known = new HashSet<>();
            for (Quota p : quotas) known.add(p.quota);
          }
          if (known == null ? Quota.policyFor(quotas, q.quota) == null : !known.contains(q.quota)) {
            // a bare second number: the singleton was repeated; keep the smaller limit
            r.anomaly();
            if (q.quota >= 0 && (limit < 0 || q.quota < limit)) limit = q.quota;
          }
        }
      } else {
        limit = Counts.read(r, Field.RATELIMIT_LIMIT, false);
      }
    }
    long remaining = Counts.read(r, Field.RATELIMIT_REMAINING, false);
    long reset = Delays.read(r, Field.RATELIMIT_RESET, Delays.Unit.MAGNITUDE);
    String rawReset = h.first(Field.RATELIMIT_RESET);
    if (rawReset != null) {
      String t = rawReset.trim();
      long raw = Numbers.milli(t, false);
      if (raw >= 1_000_000_000_000L) {
        gitlab = true; // an epoch, as only GitLab sends here
      } else if (raw == Numbers.INVALID && !t.isEmpty() && Numbers.isAlpha(t.charAt(0))) {
        dialect = ERA_A; // polli-00 allowed an IMF-fixdate
      }
    }
    String name = "";
    if (gitlab) {
      dialect = GITLAB;
      if (reset < 0) reset = Delays.read(r, Field.RATELIMIT_RESETTIME, Delays.Unit.MAGNITUDE);
      String n = h.first(Field.RATELIMIT_NAME);
      if (n != null) name = n.trim();
    }
    Quota governing = Quota.attachExpiring(quotas, name, limit, remaining, reset);
    if (gitlab && governing != null && governing.windowMillis <= 0) governing.windowMillis = 60_000;
    for (Quota q : quotas) q.addTo(r, dialect);
    r.recognised(dialect);
  }

  private static List<Quota> integerQuotas(Reading r, List<SfMember> members) {
    List<Quota> out = new ArrayList<>(members.size());
    for (SfMember m : members) {
      Quota q = integerQuota(r, m);
      if (q != null) out.add(q);
    }
    return out;
  }

  /** A {@code 10;w=1} policy item (polli-00 spells it {@code window=}; Envoy adds {@code name=}). */
  static @Nullable Quota integerQuota(Reading r, SfMember m) {
    long quota = nonNegative(r, m.value());
    Object w = m.param("w");
    if (w == null) w = m.param("window");
    long window = nonNegative(r, w);
    if (quota < 0 || window == BAD) {
      r.anomaly();
      return null;
    }
    Object name = m.param("name");
    Quota q = new Quota(name instanceof String ? (String) name : name instanceof SfMember.Token ? ((SfMember.Token) name).text() : "");
    q.quota = quota;
    q.windowSeconds(r, window);
    Object unit = m.param("qu");
    if (unit instanceof String) q.unit = (String) unit;
    return q;
  }

  /**
   * The policy a {@code RateLimit} item of {@code name} and {@code pk} reports on: the first of
   * {@code quotas} of that name whose partition key is {@code pk} or absent (any, when {@code pk}
   * is absent). A scan, while there are few ({@link StructuredFields#SCAN}); {@link Named} past that.
   */
  private static @Nullable Quota find(List<Quota> quotas, String name, @Nullable String pk) {
    for (int k = 0, n = quotas.size(); k < n; k++) {
      Quota q = quotas.get(k);
      if (q.name.equals(name) && (pk == null || q.partitionKey == null || pk.equals(q.partitionKey))) return q;
    }
    return null;
  }

  /**
   * The positions in a list of quotas of one name, so that {@link #find}'s answer is a lookup: a
   * {@code RateLimit} of n items naming n distinct policies was n&sup2;/2 name comparisons (a
   * median 2.3 s of CPU for 250 KiB of them in {@code HostileHeaderBench}, the call holding its
   * key's permit; the parser now refuses that many, but 1,024 would still be 500,000), and is n
   * lookups. The first quota of the name, the first without a partition key, and the first of
   * each key give exactly the scan's answer: for an item without a key, the first of the name;
   * for one with a key, the earlier of the first of that key and the first without one.
   */
  private static final class Named {
    int first = -1;
    int unkeyed = -1;
    @Nullable Map<String, Integer> byKey;

    static Map<String, Named> index(List<Quota> quotas) {
      Map<String, Named> index = new HashMap<>();
      for (int k = 0; k < quotas.size(); k++) add(index, quotas.get(k), k);
      return index;
    }

    /** Files {@code q}, at position {@code at} of the quotas, after every quota before it. */
    static void add(Map<String, Named> index, Quota q, int at) {
      Named n = index.computeIfAbsent(q.name, unused -> new Named());
      if (n.first < 0) n.first = at;
      String pk = q.partitionKey;
      if (pk == null) {
        if (n.unkeyed < 0) n.unkeyed = at;
      } else {
        if (n.byKey == null) n.byKey = new HashMap<>(4);
        n.byKey.putIfAbsent(pk, at);
      }
    }

    static @Nullable Quota find(Map<String, Named> index, List<Quota> quotas, String name, @Nullable String pk) {
      Named n = index.get(name);
      if (n == null) return null;
      int at;
      if (pk == null) {
        at = n.first;
      } else {
        Integer keyed = n.byKey == null ? null : n.byKey.get(pk);
        at = keyed == null ? n.unkeyed : n.unkeyed < 0 ? keyed : Math.min(keyed, n.unkeyed);
      }
      return at < 0 ? null : quotas.get(at);
    }
  }

  /** A {@code pk} parameter's value as the key it names: a Byte Sequence's base64, else none. */
  private static @Nullable String partitionKey(Object pk) {
    return pk instanceof SfMember.Bytes ? ((SfMember.Bytes) pk).base64() : null;
  }

  /** Marks a value present but negative or of the wrong type. */
  private static final long BAD = -2;

  /** A non-negative Integer parameter: its value, -1 when absent, BAD (flagged) otherwise. */
  private static long nonNegative(Reading r, @Nullable Object v) {
    if (v == null) return -1;
    if (v instanceof Long && (Long) v >= 0) return (Long) v;
    if (v instanceof Double && (Double) v >= 0) return (long) Math.floor((Double) v);
    r.anomaly();
    return BAD;
  }
}
