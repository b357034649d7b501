/**
 * Per-file metadata of shredded columns (dictionary, S, O, K, W, per-key zone statistics) and its
 * footer encoding. Internal: public only for use across this module's packages.
 */
package dev.strata.shredding.layout;
