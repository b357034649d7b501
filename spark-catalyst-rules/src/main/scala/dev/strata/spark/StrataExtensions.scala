package dev.strata.spark

import org.apache.spark.sql.SparkSessionExtensions

/** Strata's entry point into a Spark session's planner:
  * {{{
  *   spark.sql.extensions=dev.strata.spark.StrataExtensions
  * }}}
  *
  * The Strata catalog works without it (reads, writes, procedures); the extensions add what a
  * catalog cannot: plan rewrites and table-valued functions. Each capability registers its own rule
  * set in [[StrataExtensions.registrations]] so that this class stays a list, not a place for
  * logic.
  */
class StrataExtensions extends (SparkSessionExtensions => Unit) {

  override def apply(extensions: SparkSessionExtensions): Unit = {
    StrataExtensions.registrations.foreach(register => register(extensions))
  }
}

object StrataExtensions {

  /** The registrations, in order: the `full_text_search` table function, the map-key pushdown
    * rules, then `text_match` (its scan pushdown wraps what the map-key pushdown put into a
    * relation), and the parser's wrapping of CALL arguments.
    */
  private[spark] val registrations: Seq[SparkSessionExtensions => Unit] = Seq(
    search.FullTextSearchFunction.register,
    pushdown.MapPushdownExtensions,
    search.TextMatchFunction,
    ProcedureArguments
  )
}
