package dev.polite.internal.headers;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The parsed members of the policy fields seen lately ({@code RateLimit-Policy} and its
 * {@code Beta-} twin), by their text, so that a field a server repeats is parsed once.
 *
 * <p>Why only policy fields: a server states its policies on every answer, and they change only
 * when its configuration does, while the {@code RateLimit} field beside them counts down on every
 * answer. Remembering that one would only ever miss; this one misses once per policy text. On the
 * interceptor's path the policy field was a third of what reading an IETF answer allocated (its
 * members, their parameters, their numbers boxed: about 220 bytes) and about as much of its time.
 *
 * <p>{@link #SLOTS} texts are remembered, each in the slot its hash picks; a text that meets
 * another in its slot takes the slot over. A text longer than {@link #MAX_TEXT} is parsed every
 * time and never kept, so that what is remembered stays small (at most {@link #SLOTS} &times;
 * {@link #MAX_TEXT} characters and their members), whatever servers send; a malformed one is not
 * kept either, so that each answer that carries it is flagged as before.
 *
 * <p>Thread-safe without locks: a slot holds an immutable entry whose members are read, never
 * written, after the parse (final fields publish them whole), and a race costs a parse.
 */
final class RecentPolicyFields {
  /** Policy texts remembered: more than the APIs one client talks to, a power of two. */
  static final int SLOTS = 16;
  /**
   * The longest text remembered: three policies of a long ordinary shape fit in it (a
   * 30-character name, {@code q} and {@code w} of 15 digits each, a {@code qu} and a 32-byte
   * {@code pk} in base64: about 130 characters each).
   */
  static final int MAX_TEXT = 512;

  private static final Entry[] REMEMBERED = new Entry[SLOTS];

  private record Entry(String text, List<SfMember> members) {}

  private RecentPolicyFields() {}

  /** The members of the List field {@code field}, or {@code null} if malformed. */
  static @Nullable List<SfMember> list(String field) {
    if (field.length() > MAX_TEXT) return StructuredFields.list(field);
    int slot = field.hashCode() & (SLOTS - 1);
    Entry seen = REMEMBERED[slot];
    if (seen != null && seen.text.equals(field)) return seen.members;
    List<SfMember> members = StructuredFields.list(field);
    if (members != null) REMEMBERED[slot] = new Entry(field, members);
    return members;
  }
}
