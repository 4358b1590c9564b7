/**
 * What the examples share: the parsing of the quantities and words people type (numbers with SI suffixes,
 * durations, money, closed sets of words), printable text for terminals and the version of the library. The
 * command-line tool and the HTTP service both use it; neither reaches into the other's package.
 */
package io.github.gpusizer.examples.support;
