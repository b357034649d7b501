package dev.strata.spark

import org.apache.spark.sql.SparkSessionExtensions

/** Strata's planner extensions (`spark.sql.extensions=dev.strata.spark.StrataExtensions`). */
class StrataExtensions extends (SparkSessionExtensions => Unit) {

  override def apply(extensions: SparkSessionExtensions): Unit = {
    StrataExtensions.registrations.foreach(register => register(extensions))
  }
}

object StrataExtensions {

  /** In order: `text_match`'s scan pushdown wraps what the map-key pushdown put in a relation. */
  private[spark] val registrations: Seq[SparkSessionExtensions => Unit] = Seq(
    search.FullTextSearchFunction.register,
    pushdown.MapPushdownExtensions,
    search.TextMatchFunction,
    lookup.KeyLookupStrategy.register,
    ProcedureArguments,
    write.NullIntoNotNullColumnsExtension
  )
}
