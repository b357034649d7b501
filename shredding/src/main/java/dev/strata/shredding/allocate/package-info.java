/** Column placement and K adaptation; internal to this module. */
package dev.strata.shredding.allocate;
