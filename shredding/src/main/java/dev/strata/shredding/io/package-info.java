/**
 * Reading files: the one exception for a damaged file, shared by every reader, and the read buffer
 * every Parquet file is opened through.
 */
package dev.strata.shredding.io;
