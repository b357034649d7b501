/**
 * What every reader of Strata, Parquet and archive files shares, below every other package: the one
 * exception for a damaged file.
 */
package dev.strata.shredding.io;
