/** The one exception for a damaged file, shared by every reader. */
package dev.strata.shredding.io;
