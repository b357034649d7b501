/**
 * Map-key predicates handed from a scan to the reader ({@link
 * dev.strata.shredding.pushdown.MapPredicate}, public API) and the pruning engine that decides per
 * file, row group and page whether they can match ({@link dev.strata.shredding.pushdown.MapPruner},
 * internal).
 */
package dev.strata.shredding.pushdown;
