package dev.strata.spark.search

import scala.jdk.CollectionConverters._

import dev.strata.spark.read.TextMatchPushdown
import dev.strata.spark.table.{MapPushdownTable, StrataTable, TextMatchTable}

import org.apache.spark.sql.catalyst.expressions.{Attribute, PredicateHelper}
import org.apache.spark.sql.catalyst.plans.logical.{Filter, LogicalPlan}
import org.apache.spark.sql.catalyst.rules.Rule
import org.apache.spark.sql.connector.catalog.SupportsRead
import org.apache.spark.sql.execution.datasources.v2.DataSourceV2Relation

/**
 * Pushes `text_match(column, 'query')` conjuncts of a Filter directly over a Strata read relation into
 * that relation's scan: the relation's table is wrapped in a [[TextMatchTable]] (around the
 * [[MapPushdownTable]] when map-key predicates were pushed, so both reach the scan), whose scan reads only
 * the rows the full-text archives (and files indexed at query time) say can match. Only the
 * deterministic prefix of the conjuncts is considered, as in Spark's own filter push-down. The Filter stays
 * as it is, so Spark evaluates every `text_match` on each row read and answers are exact.
 *
 * Runs once just before V2 scan push-down (`injectPreCBORule`), after the map-key pushdown rule; each Filter's
 * own relation node is replaced, so a table read twice (a self-join) gets each scan its own text match.
 */
object PushTextMatchIntoStrataScans extends Rule[LogicalPlan] with PredicateHelper {

  override def apply(plan: LogicalPlan): LogicalPlan = plan.transformUpWithSubqueries {
    case f @ Filter(condition, r: DataSourceV2Relation) if isStrata(r) =>
      val queries = splitConjunctivePredicates(condition).takeWhile(_.deterministic).collect {
        case TextMatch(a: Attribute, _, Some(b)) if r.outputSet.contains(a) => b.column -> b.query
      }
      // A table has one indexed column; all bound text matches on this relation are on it.
      queries.groupBy(_._1).headOption match {
        case Some((column, qs)) =>
          val pushdown = new TextMatchPushdown(column, qs.map(_._2).distinct.asJava, FullTextScans.fresh())
          f.copy(child = r.copy(table = new TextMatchTable(r.table.asInstanceOf[SupportsRead], pushdown)))
        case None => f
      }
  }

  private def isStrata(r: DataSourceV2Relation): Boolean = r.table match {
    case _: StrataTable | _: MapPushdownTable => true
    case _ => false
  }
}
