package dev.strata.spark.search

import scala.jdk.CollectionConverters._

import dev.strata.spark.read.TextMatchPushdown
import dev.strata.spark.table.{MapPushdownTable, StrataTable, TextMatchTable}

import org.apache.spark.sql.catalyst.expressions.{And, Attribute, PredicateHelper}
import org.apache.spark.sql.catalyst.plans.logical.{Filter, LogicalPlan}
import org.apache.spark.sql.catalyst.rules.Rule
import org.apache.spark.sql.connector.catalog.SupportsRead
import org.apache.spark.sql.execution.datasources.v2.DataSourceV2Relation

/** Pushes `text_match` conjuncts of a Filter over a Strata relation into its scan (a
  * [[TextMatchTable]], around any [[MapPushdownTable]]), which reads only rows the indexes say can
  * match. Exactly answered conjuncts (`TextMatcher.exactInIndex`) leave the Filter; fuzzy,
  * wildcard, prefix, regexp and range ones stay. Each Filter's own relation is replaced, so each
  * scan of a self-join gets its own match.
  */
object PushTextMatchIntoStrataScans extends Rule[LogicalPlan] with PredicateHelper {

  override def apply(plan: LogicalPlan): LogicalPlan = plan.transformUpWithSubqueries {
    case f @ Filter(condition, r: DataSourceV2Relation) if isStrata(r) =>
      val conjuncts = splitConjunctivePredicates(condition)
      val matches = conjuncts.takeWhile(_.deterministic).collect {
        case t @ TextMatch(a: Attribute, _, Some(b)) if r.outputSet.contains(a) => t -> b
      }
      // A table has one indexed column; all bound text matches on this relation are on it.
      matches.groupBy(_._2.column).headOption match {
        case Some((column, found)) =>
          val bindings = found.map(_._2).distinctBy(_.query)
          val exact = found.filter(_._2.matcher.exactInIndex()).map(_._1)
          val matchers = if (exact.isEmpty) Seq.empty else bindings.map(_.matcher)
          val pushdown = new TextMatchPushdown(
            column,
            bindings.map(_.query).asJava,
            FullTextScans.fresh(),
            matchers.asJava
          )
          val scan =
            r.copy(table = new TextMatchTable(r.table.asInstanceOf[SupportsRead], pushdown))
          // The scan returns only rows matching every query: Spark need not evaluate the exact ones again.
          conjuncts.filterNot(c => exact.exists(_ eq c)) match {
            case Seq() => scan
            case rest  => f.copy(condition = rest.reduce(And), child = scan)
          }
        case None => f
      }
  }

  private def isStrata(r: DataSourceV2Relation): Boolean = r.table match {
    case _: StrataTable | _: MapPushdownTable => true
    case _                                    => false
  }
}
