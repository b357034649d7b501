/**
 * The Paimon file format (identifier strata-shredded) registered through META-INF/services. Only the factory is public, as ServiceLoader requires.
 */
package dev.strata.shredding.format;
