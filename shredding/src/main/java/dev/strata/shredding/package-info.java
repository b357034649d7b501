/**
 * Strata shared-shredding MAP layout. Public API for engines: {@link
 * dev.strata.shredding.ShreddingOptions} (validation and file format choice), {@link
 * dev.strata.shredding.ShreddedReadHandover} (per-read dynamic options), {@link
 * dev.strata.shredding.ShreddedReadMetrics} (scan counters) and {@link
 * dev.strata.shredding.pushdown.MapPredicate}.
 */
package dev.strata.shredding;
