/** The one bounded cache of Strata's readers, below every other package. */
package dev.strata.shredding.cache;
