package dev.strata.spark.search

import dev.strata.spark.errors.StrataErrors

import org.apache.spark.sql.SparkSessionExtensions
import org.apache.spark.sql.catalyst.FunctionIdentifier
import org.apache.spark.sql.catalyst.expressions.{Expression, ExpressionInfo}

/** Registers `text_match` ([[TextMatch]]): function, binding rule, check and scan pushdown. */
object TextMatchFunction extends (SparkSessionExtensions => Unit) {

  private val Usage =
    s"${TextMatch.Name}(column, query) - true when the full-text indexed STRING column of a Strata table matches " +
      "the query (Lucene classic syntax or Paimon's JSON query DSL) as the table's full-text index answers it."

  override def apply(extensions: SparkSessionExtensions): Unit = {
    extensions.injectFunction(
      (
        FunctionIdentifier(TextMatch.Name),
        new ExpressionInfo(classOf[TextMatch].getName, null, TextMatch.Name, Usage, ""),
        build _
      )
    )
    extensions.injectResolutionRule(_ => ResolveTextMatch)
    extensions.injectCheckRule(_ => TextMatchChecks)
    extensions.injectPreCBORule(_ => PushTextMatchIntoStrataScans)
  }

  private def build(args: Seq[Expression]): Expression = {
    if (args.size != 2) {
      throw StrataErrors.analysis(
        s"Cannot call ${TextMatch.Name} with ${args.size} arguments: expected (column, " +
          s"query), e.g. ${TextMatch.Name}(body, 'disk AND failure')."
      )
    }
    TextMatch(args.head, args(1), None)
  }
}
