/**
 * Strata's Paimon file formats, registered through META-INF/services: {@code parquet} (Paimon's
 * Parquet with the shared-shredding layout written and read by Strata, {@link
 * dev.strata.shredding.format.StrataParquetFileFormatFactory}) and {@code strata-shredded} (the
 * extension of shredded files written by earlier Strata versions, still read). Only the factories
 * are public, as ServiceLoader requires.
 */
package dev.strata.shredding.format;
