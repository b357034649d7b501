package dev.strata.spark.pushdown

import scala.jdk.CollectionConverters._

import dev.strata.shredding.ShreddingOptions
import dev.strata.shredding.pushdown.MapPredicate
import dev.strata.spark.read.MapPushdown
import dev.strata.spark.table.{MapPushdownTable, StrataTable}

import org.apache.spark.sql.catalyst.expressions.{ExprId, PredicateHelper}
import org.apache.spark.sql.catalyst.plans.logical.{Filter, LogicalPlan}
import org.apache.spark.sql.catalyst.rules.Rule
import org.apache.spark.sql.execution.datasources.v2.DataSourceV2Relation
import org.apache.spark.sql.types.{MapType, StringType}

/** Pushes map-key predicates and selected keys of shared-shredding MAP columns into Strata scans,
  * as a plan-wide rule rather than a V2 function: selected keys need every use of a column, which a
  * scan builder never sees, and Catalyst's types are at hand here. Spark's Filter stays.
  */
object PushMapAccessIntoStrataScans extends Rule[LogicalPlan] with PredicateHelper {

  override def apply(plan: LogicalPlan): LogicalPlan = {
    val all = plan.collect {
      case r @ DataSourceV2Relation(t: StrataTable, _, _, _, _, _)
          if shreddedColumns(r, t).nonEmpty =>
        (r, t)
    }
    // A relation node occurring twice with the same ids cannot tell its filters apart: skip it.
    val occurrences = all.groupBy(_._1.output.map(_.exprId)).map { case (k, v) => k -> v.size }
    val candidates = all.filter { case (r, _) => occurrences(r.output.map(_.exprId)) == 1 }
    if (candidates.isEmpty) return plan

    // Map column attribute id -> column name, per relation (identified by its output ids).
    val columnsOf: Map[Seq[ExprId], Map[ExprId, String]] = candidates.map { case (r, t) =>
      r.output.map(_.exprId) -> shreddedColumns(r, t)
    }.toMap
    val uses = new MapKeyUses(columnsOf.values.flatMap(_.keySet).toSet).collect(plan)

    val predicates: Map[Seq[ExprId], Seq[MapPredicate]] = plan
      .collect {
        case Filter(condition, r: DataSourceV2Relation)
            if columnsOf.contains(r.output.map(_.exprId)) =>
          val columns = columnsOf(r.output.map(_.exprId)).keySet
          // Only the deterministic prefix, as Spark's own filter push-down.
          val conjuncts = splitConjunctivePredicates(condition).takeWhile(_.deterministic)
          r.output.map(_.exprId) -> conjuncts.flatMap(c =>
            MapPredicateTranslation.translate(c, columns)
          )
      }
      .groupBy(_._1)
      .map { case (k, v) => k -> v.flatMap(_._2) }

    val pushdowns: Map[Seq[ExprId], MapPushdown] = columnsOf.map { case (rel, columns) =>
      val keys = new java.util.LinkedHashMap[String, java.util.List[String]]()
      columns.foreach { case (id, name) =>
        uses.selectedKeys(id).foreach(ks => keys.put(name, ks.asJava))
      }
      rel -> new MapPushdown(keys, predicates.getOrElse(rel, Seq.empty).asJava)
    }

    val pushed = plan.transformUp {
      case r @ DataSourceV2Relation(t: StrataTable, _, _, _, _, _)
          if pushdowns.get(r.output.map(_.exprId)).exists(!_.isEmpty) =>
        r.copy(table = new MapPushdownTable(t, pushdowns(r.output.map(_.exprId))))
    }
    val keysOf =
      columnsOf.values.flatMap(_.keySet).flatMap(id => uses.selectedKeys(id).map(id -> _))
    MapKeyColumns(pushed, keysOf.toMap)
  }

  /** The relation's shared-shredding `MAP<STRING, V>` columns, by attribute id. */
  private def shreddedColumns(r: DataSourceV2Relation, t: StrataTable): Map[ExprId, String] = {
    val paimon = t.paimonTable()
    val shredded =
      ShreddingOptions.shreddedColumns(paimon.rowType(), paimon.options()).keySet().asScala
    r.output.collect {
      case a if shredded.contains(a.name) && (a.dataType match {
            case MapType(StringType, _, _) => true
            case _                         => false
          }) =>
        a.exprId -> a.name
    }.toMap
  }
}
