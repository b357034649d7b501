package dev.strata.spark.pushdown

import org.apache.spark.sql.SparkSessionExtensions

/** Registers map-key predicate and selected-key pushdown. `injectPreCBORule` runs the rule once,
  * right before V2 scan push-down, on a plan whose filters are already pushed down and whose
  * inferred `isnotnull` conditions are in place (an `injectOptimizerRule` would run it in a
  * fixed-point batch).
  */
object MapPushdownExtensions extends (SparkSessionExtensions => Unit) {

  override def apply(extensions: SparkSessionExtensions): Unit = {
    extensions.injectPreCBORule(_ => PushMapAccessIntoStrataScans)
  }
}
