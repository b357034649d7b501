package dev.strata.spark.search

import scala.jdk.CollectionConverters._

import dev.strata.spark.read.TextMatchPushdown
import dev.strata.spark.table.{MapPushdownTable, StrataTable, TextMatchTable}

import org.apache.spark.sql.catalyst.expressions.{And, Attribute, PredicateHelper}
import org.apache.spark.sql.catalyst.plans.logical.{Filter, LogicalPlan}
import org.apache.spark.sql.catalyst.rules.Rule
import org.apache.spark.sql.connector.catalog.SupportsRead
import org.apache.spark.sql.execution.datasources.v2.DataSourceV2Relation

/** Pushes `text_match(column, 'query')` conjuncts of a Filter directly over a Strata read relation
  * into that relation's scan: the relation's table is wrapped in a [[TextMatchTable]] (around the
  * [[MapPushdownTable]] when map-key predicates were pushed, so both reach the scan), whose scan
  * reads only the rows the full-text archives (and files indexed at query time) say can match. Only
  * the deterministic prefix of the conjuncts is considered, as in Spark's own filter push-down.
  *
  * A query whose match of a row does not depend on the rest of the index (terms, phrases, boolean
  * combinations: `TextMatcher.exactInIndex`) is answered exactly by the scan — by position from the
  * indexes, and by matching each row itself where it reads rows otherwise — so its conjunct is
  * removed from the Filter (the Filter too when nothing is left). Fuzzy, wildcard, prefix, regexp
  * and range queries expand against each index's terms with limits: their conjuncts stay, and Spark
  * evaluates them on every row read.
  *
  * Runs once just before V2 scan push-down (`injectPreCBORule`), after the map-key pushdown rule;
  * each Filter's own relation node is replaced, so a table read twice (a self-join) gets each scan
  * its own text match.
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
