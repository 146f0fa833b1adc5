package dev.polite.internal.headers;

/**
 * Salesforce's {@code Sforce-Limit-Info: api-usage=10018/100000; api-bursts=1/750}, dialect
 * {@code salesforce}: each {@code name=used/limit} a policy (the org's rolling daily usage, the
 * burst allowance, a connected app's {@code per-app-api-usage=17/250(appName=x)}), its remainder
 * limit − used.
 */
final class SalesforceDialect {
  static final String DIALECT = "salesforce";

  private SalesforceDialect() {}

  static void read(Reading r) {
    ResponseHeaders h = r.headers;
    int lines = h.lineCount(Field.SFORCE_LIMIT_INFO);
    boolean found = false;
    for (int i = 0; i < lines; i++) {
      String line = h.line(Field.SFORCE_LIMIT_INFO, i);
      int n = line.length();
      for (int start = 0; start < n; ) {
        int end = nextSeparator(line, start);
        int eq = line.indexOf('=', start);
        if (eq > start && eq < end) {
          String name = line.substring(start, eq).trim();
          int valueEnd = end;
          int paren = line.indexOf('(', eq);
          if (paren >= 0 && paren < end) valueEnd = paren;
          Quota q = ShopifyDialect.usedOverLimit(r, line, eq + 1, valueEnd, name);
          if (q != null && !name.isEmpty()) {
            q.addTo(r, DIALECT);
            found = true;
          }
        }
        start = end + 1;
      }
    }
    if (found) r.recognised(DIALECT);
  }

  /** The next {@code ;} or {@code ,} outside the parenthesised app name. */
  private static int nextSeparator(String s, int from) {
    int depth = 0;
    for (int i = from; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '(') depth++;
      else if (c == ')') depth = Math.max(0, depth - 1);
      else if ((c == ';' || c == ',') && depth == 0) return i;
    }
    return s.length();
  }
}
