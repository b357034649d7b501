/**
 * Strata's Paimon file format, registered through META-INF/services: {@code parquet} (Paimon's
 * Parquet with the shared-shredding layout written and read by Strata, {@link
 * dev.strata.shredding.format.StrataParquetFileFormatFactory}). Only the factory is public, as
 * ServiceLoader requires.
 */
package dev.strata.shredding.format;
