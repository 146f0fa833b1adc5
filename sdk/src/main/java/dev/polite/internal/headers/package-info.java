/**
 * Rate-limit header dialects: not API, may change in any release.
 */
@NullMarked
package dev.polite.internal.headers;

import org.jspecify.annotations.NullMarked;
