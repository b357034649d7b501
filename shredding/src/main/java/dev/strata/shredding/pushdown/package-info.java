/**
 * Map-key predicates handed from a scan to the reader ({@code MapPredicate}, public API) and the
 * pruning engine deciding per file, row group and page whether they can match ({@code MapPruner}).
 */
package dev.strata.shredding.pushdown;
