package dev.strata.spark.pushdown

import org.apache.spark.sql.SparkSessionExtensions

/** Registers map-key pushdown as a pre-CBO rule: once, after filter push-down, before V2 scans. */
object MapPushdownExtensions extends (SparkSessionExtensions => Unit) {

  override def apply(extensions: SparkSessionExtensions): Unit = {
    extensions.injectPreCBORule(_ => PushMapAccessIntoStrataScans)
  }
}
