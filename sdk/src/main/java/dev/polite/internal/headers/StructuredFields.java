package dev.polite.internal.headers;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A strict RFC 9651 parser for the two top-level types the IETF rate-limit fields use, List and
 * Dictionary, with every bare item type (so that a field using an unexpected one is read, not
 * rejected) and parameters, whose whitespace after {@code ;} express-rate-limit emits
 * ({@code "name"; r=99; t=60}). Any syntax error rejects the whole field, as RFC 9651 requires and
 * the draft repeats ("Malformed RateLimit header fields MUST be ignored").
 *
 * <p>Linear time, whatever a server sends: every character is read once, and a duplicate
 * Dictionary key or parameter (whose value RFC 9651 sections 4.2.2 and 4.2.3.2 overwrite, in the
 * first one's place, as in an ordered map) is found by a scan of the few keys a field usually has,
 * or by a hash index once it has more ({@link #SCAN}). A field with more members than
 * {@link #MAX_MEMBERS}, an Item or Inner List with more parameters than {@link #MAX_PARAMS}, or an
 * Inner List longer than {@link #MAX_INNER} is malformed: the caps are the minimums RFC 9651
 * section 3 asks every parser to support, and no rate-limit field comes near them, so that a
 * 250 KiB field of distinct members (OkHttp lets 256 KiB of header lines through) is turned away
 * after its 1,025th member rather than read into tens of thousands of policies.
 *
 * <p>Written here rather than taken from {@code org.greenbytes.http:structured-fields} because
 * that artifact is not available to this build and the sdk stays lean: two entry points, no
 * dependency, no regex.
 */
final class StructuredFields {
  /** List and Dictionary members a field may have (RFC 9651 sections 3.1 and 3.2: at least 1,024). */
  static final int MAX_MEMBERS = 1024;
  /** Parameters an Item or Inner List may have (section 3.1.2: at least 256). */
  static final int MAX_PARAMS = 256;
  /** Members an Inner List may have (section 3.1.1: at least 256). */
  static final int MAX_INNER = 256;
  /**
   * Keys found by scanning the members before them; past this many, by a hash index. A
   * rate-limit field has one to four members with two to four parameters each, for which a scan
   * of a few short strings beats building a map (the ordinary headers' parse allocates none).
   */
  static final int SCAN = 8;

  private final String s;
  private int i;

  private StructuredFields(String s) {
    this.s = s;
  }

  /** The members of a List field, or {@code null} if malformed. */
  static @Nullable List<SfMember> list(String field) {
    return new StructuredFields(field).top(false);
  }

  /** The members of a Dictionary field (each with its key), or {@code null} if malformed. */
  static @Nullable List<SfMember> dictionary(String field) {
    return new StructuredFields(field).top(true);
  }

  private @Nullable List<SfMember> top(boolean dictionary) {
    try {
      skipSp();
      List<SfMember> out = new ArrayList<>(4);
      if (i == s.length()) return out;
      Map<String, Integer> index = null;
      for (int members = 1; ; members++) {
        if (members > MAX_MEMBERS) return null;
        SfMember m = dictionary ? dictMember() : listMember(null);
        if (m == null) return null;
        if (dictionary) index = putKeyed(out, index, m);
        else out.add(m);
        skipOws();
        if (i == s.length()) break;
        if (s.charAt(i) != ',') return null;
        i++;
        skipOws();
        if (i == s.length()) return null; // trailing comma
      }
      return out;
    } catch (RuntimeException malformed) {
      return null;
    }
  }

  private @Nullable SfMember dictMember() {
    String key = key();
    if (key == null) return null;
    if (i < s.length() && s.charAt(i) == '=') {
      i++;
      return listMember(key);
    }
    List<SfMember> params = params();
    return params == null ? null : new SfMember(key, Boolean.TRUE, params);
  }

  private @Nullable SfMember listMember(@Nullable String key) {
    Object value;
    if (i < s.length() && s.charAt(i) == '(') {
      value = innerList();
    } else {
      value = bareItem();
    }
    if (value == null) return null;
    List<SfMember> params = params();
    return params == null ? null : new SfMember(key, value, params);
  }

  private @Nullable List<SfMember> innerList() {
    i++; // (
    List<SfMember> items = new ArrayList<>(2);
    while (i < s.length()) {
      skipSp();
      if (i < s.length() && s.charAt(i) == ')') {
        i++;
        return items;
      }
      if (items.size() == MAX_INNER) return null;
      Object v = bareItem();
      if (v == null) return null;
      List<SfMember> params = params();
      if (params == null) return null;
      items.add(new SfMember(null, v, params));
      if (i < s.length() && s.charAt(i) != ' ' && s.charAt(i) != ')') return null;
    }
    return null;
  }

  private @Nullable List<SfMember> params() {
    List<SfMember> params = null;
    Map<String, Integer> index = null;
    for (int count = 1; i < s.length() && s.charAt(i) == ';'; count++) {
      if (count > MAX_PARAMS) return null;
      i++;
      skipSp();
      String key = key();
      if (key == null) return null;
      Object value = Boolean.TRUE;
      if (i < s.length() && s.charAt(i) == '=') {
        i++;
        value = bareItem();
        if (value == null) return null;
      }
      if (params == null) params = new ArrayList<>(4);
      index = putKeyed(params, index, new SfMember(key, value, Collections.emptyList()));
    }
    return params == null ? Collections.emptyList() : params;
  }

  private @Nullable String key() {
    int start = i;
    if (i >= s.length()) return null;
    char c = s.charAt(i);
    if (!(c >= 'a' && c <= 'z') && c != '*') return null;
    i++;
    while (i < s.length() && isKeyChar(s.charAt(i))) i++;
    return i - start == 1 ? oneLetterKey(s.charAt(start)) : s.substring(start, i);
  }

  /** The rate-limit fields' one-letter parameter names without a fresh String each time. */
  private static String oneLetterKey(char c) {
    switch (c) {
      case 'q': return "q";
      case 'r': return "r";
      case 't': return "t";
      case 'w': return "w";
      default: return String.valueOf(c);
    }
  }

  private @Nullable Object bareItem() {
    if (i >= s.length()) return null;
    char c = s.charAt(i);
    if (c == '-' || Numbers.isDigit(c)) return number();
    if (c == '"') return string();
    if (c == '*' || Numbers.isAlpha(c)) return token();
    if (c == ':') return bytes();
    if (c == '?') return bool();
    if (c == '@') {
      i++;
      Object n = number();
      return n instanceof Long ? new SfMember.Date((Long) n) : null;
    }
    if (c == '%') return displayString();
    return null;
  }

  private @Nullable Object number() {
    int start = i;
    boolean negative = false;
    if (s.charAt(i) == '-') {
      negative = true;
      i++;
    }
    int digitsStart = i;
    long v = 0; // read as it is scanned; past 15 digits (refused below) it may overflow unread
    for (char c; i < s.length() && Numbers.isDigit(c = s.charAt(i)); i++) v = v * 10 + (c - '0');
    int whole = i - digitsStart;
    if (whole == 0) return null;
    if (i < s.length() && s.charAt(i) == '.') {
      if (whole > 12) return null;
      i++;
      int fs = i;
      while (i < s.length() && Numbers.isDigit(s.charAt(i))) i++;
      int frac = i - fs;
      if (frac < 1 || frac > 3) return null;
      return Double.parseDouble(s.substring(start, i));
    }
    if (whole > 15) return null;
    return negative ? -v : v;
  }

  private @Nullable String string() {
    i++; // "
    StringBuilder b = null;
    int start = i;
    while (i < s.length()) {
      char c = s.charAt(i);
      if (c == '\\') {
        if (i + 1 >= s.length()) return null;
        char e = s.charAt(i + 1);
        if (e != '"' && e != '\\') return null;
        if (b == null) b = new StringBuilder();
        b.append(s, start, i).append(e);
        i += 2;
        start = i;
      } else if (c == '"') {
        String out = b == null ? s.substring(start, i) : b.append(s, start, i).toString();
        i++;
        return out;
      } else if (c < 0x20 || c > 0x7e) {
        return null;
      } else {
        i++;
      }
    }
    return null;
  }

  private SfMember.Token token() {
    int start = i;
    i++;
    while (i < s.length() && isTokenChar(s.charAt(i))) i++;
    return new SfMember.Token(s.substring(start, i));
  }

  private SfMember.@Nullable Bytes bytes() {
    int start = ++i;
    while (i < s.length() && s.charAt(i) != ':') {
      char c = s.charAt(i);
      if (!(Numbers.isAlpha(c) || Numbers.isDigit(c) || c == '+' || c == '/' || c == '=')) return null;
      i++;
    }
    if (i >= s.length()) return null;
    String b64 = s.substring(start, i);
    i++;
    return new SfMember.Bytes(b64);
  }

  private @Nullable Boolean bool() {
    if (i + 1 >= s.length()) return null;
    char c = s.charAt(i + 1);
    i += 2;
    if (c == '1') return Boolean.TRUE;
    if (c == '0') return Boolean.FALSE;
    return null;
  }

  private @Nullable String displayString() {
    if (i + 1 >= s.length() || s.charAt(i + 1) != '"') return null;
    i += 2;
    int start = i;
    while (i < s.length()) {
      char c = s.charAt(i);
      if (c == '"') {
        String out = s.substring(start, i);
        i++;
        return out; // percent-decoding is not needed by any rate-limit parameter
      }
      if (c < 0x20 || c > 0x7e) return null;
      i++;
    }
    return null;
  }

  /** A character a key may have after its first (RFC 9651 section 3.1.2: lcalpha, DIGIT, "_-.*"). */
  static boolean isKeyChar(char c) {
    return (c >= 'a' && c <= 'z') || Numbers.isDigit(c) || c == '_' || c == '-' || c == '.' || c == '*';
  }

  static boolean isTokenChar(char c) {
    if (Numbers.isAlpha(c) || Numbers.isDigit(c)) return true;
    switch (c) {
      case '!': case '#': case '$': case '%': case '&': case '\'': case '*': case '+': case '-':
      case '.': case '^': case '_': case '`': case '|': case '~': case ':': case '/':
        return true;
      default:
        return false;
    }
  }

  /**
   * Adds a keyed member to {@code out}, or, when {@code out} already has its key, puts it in that
   * member's place: RFC 9651 sections 4.2.2 and 4.2.3.2 overwrite a duplicate's value, and the
   * ordered map they describe keeps the first one's position ({@code a=1, b=2, a=3} is
   * {@code a=3, b=2}). Up to {@link #SCAN} members the key is found by scanning them; the first
   * member past that builds {@code index} (key to position) from them, and every later key is one
   * lookup, so a field of n distinct keys costs n steps, not n&sup2;/2 string comparisons.
   *
   * @return {@code index}, or the index just built
   */
  private static @Nullable Map<String, Integer> putKeyed(List<SfMember> out,
      @Nullable Map<String, Integer> index, SfMember m) {
    String key = m.key();
    if (index != null) {
      Integer at = index.putIfAbsent(key, out.size());
      if (at == null) out.add(m);
      else out.set(at, m);
      return index;
    }
    for (int k = 0; k < out.size(); k++) {
      if (out.get(k).key().equals(key)) {
        out.set(k, m);
        return null;
      }
    }
    out.add(m);
    if (out.size() <= SCAN) return null;
    Map<String, Integer> built = new HashMap<>();
    for (int k = 0; k < out.size(); k++) built.put(out.get(k).key(), k);
    return built;
  }

  private void skipSp() {
    while (i < s.length() && s.charAt(i) == ' ') i++;
  }

  private void skipOws() {
    while (i < s.length() && (s.charAt(i) == ' ' || s.charAt(i) == '\t')) i++;
  }
}
