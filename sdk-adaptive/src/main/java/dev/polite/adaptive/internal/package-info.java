/**
 * sdk-adaptive's internals: not API, may change in any release.
 */
@NullMarked
package dev.polite.adaptive.internal;

import org.jspecify.annotations.NullMarked;
