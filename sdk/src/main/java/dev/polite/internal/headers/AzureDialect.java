package dev.polite.internal.headers;

import java.util.Locale;

/**
 * Microsoft Azure, dialect {@code azure}. Resource Manager reports only what remains, one header
 * per scope ({@code x-ms-ratelimit-remaining-subscription-reads: 11999}), each a policy named by
 * its scope. The Compute provider packs several named remainders into one non-structured value
 * ({@code Microsoft.Compute/GetVMScaleSet3Min;197,Microsoft.Compute/GetVMScaleSet30Min;1297}).
 * Resource Graph sends {@code x-ms-user-quota-remaining} with a .NET {@code hh:mm:ss}
 * {@code x-ms-user-quota-resets-after}, read as the policy {@code user-quota}. (Azure's
 * millisecond retry headers are {@link RetryAfter}'s.)
 */
final class AzureDialect {
  static final String DIALECT = "azure";

  private AzureDialect() {}

  static void read(Reading r) {
    ResponseHeaders h = r.headers;
    boolean found = false;
    if (h.has(Prefix.AZURE)) {
      int prefix = Prefix.AZURE.text.length();
      for (int i = 0, n = h.prefixedCount(); i < n; i++) {
        if (h.prefixedKind(i) != Prefix.AZURE) continue;
        String scope = h.prefixedName(i).substring(prefix).toLowerCase(Locale.ROOT);
        String value = h.prefixedValue(i);
        if (scope.equals("resource") && value.indexOf(';') >= 0) {
          found |= namedRemainders(r, value);
        } else {
          Quota q = new Quota(scope);
          q.remaining = Counts.parse(r, value, false);
          found |= !q.isEmpty();
          q.addTo(r, DIALECT);
        }
      }
    }
    if (h.has(Field.X_MS_USER_QUOTA_REMAINING) || h.has(Field.X_MS_USER_QUOTA_RESETS_AFTER)) {
      Quota q = new Quota("user-quota");
      q.remaining = Counts.read(r, Field.X_MS_USER_QUOTA_REMAINING, false);
      q.resetMillis = Delays.read(r, Field.X_MS_USER_QUOTA_RESETS_AFTER, Delays.Unit.SECONDS);
      found |= !q.isEmpty();
      q.addTo(r, DIALECT);
    }
    if (found) r.recognised(DIALECT);
  }

  private static boolean namedRemainders(Reading r, String value) {
    boolean found = false;
    int n = value.length();
    for (int start = 0; start < n; ) {
      int end = value.indexOf(',', start);
      if (end < 0) end = n;
      int semi = value.lastIndexOf(';', end - 1);
      if (semi >= start) {
        String name = value.substring(start, semi).trim();
        long remaining = Counts.one(r, value, semi + 1, end);
        if (!name.isEmpty() && remaining >= 0) {
          Quota q = new Quota(name);
          q.remaining = remaining;
          q.addTo(r, DIALECT);
          found = true;
        }
      }
      start = end + 1;
    }
    return found;
  }
}
