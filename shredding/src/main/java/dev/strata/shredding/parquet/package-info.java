/**
 * Writing and reading the shredded layout with parquet-hadoop. Internal: public only for use across
 * this module's packages and by tests; the Spark side goes through Paimon and the format.
 */
package dev.strata.shredding.parquet;
