/**
 * polite's internals: not API, may change in any release.
 */
@NullMarked
package dev.polite.internal;

import org.jspecify.annotations.NullMarked;
