/** Per-file metadata of shredded columns and its footer encoding; internal to this module. */
package dev.strata.shredding.layout;
