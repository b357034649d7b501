/**
 * Column placement (plain, sequential, lru, stable) and K adaptation. Internal: public only for use
 * across this module's packages; the Spark side should not call it.
 */
package dev.strata.shredding.allocate;
