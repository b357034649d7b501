/** Writing and reading the shredded layout with parquet-hadoop; internal to this module. */
package dev.strata.shredding.parquet;
