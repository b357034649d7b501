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

/** Pushes map-key predicates and selected keys of shared-shredding MAP columns into Strata scans.
  *
  * '''Mechanism: planning time, not a V2 function.''' The rule runs once just before Spark's V2
  * scan push-down (`injectPreCBORule`), sees the whole optimized plan, and replaces the read
  * relation's [[StrataTable]] by a [[MapPushdownTable]] carrying a [[MapPushdown]]; the scan
  * builder it creates then reads only the selected keys' sub-columns and lets the shredded reader
  * skip files, row groups and pages that cannot match. The alternative (rewrite `m['k']` into a
  * call of a catalog `ScalarFunction` so Spark's V2 translation hands `map_value(m, 'k') > 30.0` to
  * `pushPredicates`) was not taken because: (1) selected keys need a view of every use of the
  * column across Filter, Aggregate, Join, Sort and subqueries, which a scan builder never gets (it
  * sees required columns only), so a plan-wide rule is needed anyway and can decide predicates in
  * the same place; (2) the translation keeps Catalyst's types at hand (value type vs literal type,
  * casts on the map side, NULL-rejection), where a V2 round trip loses or reorders them; (3) no
  * function has to be exposed to users.
  *
  * Spark's Filter stays (its lookups become the scan's key columns where [[MapKeyColumns]]
  * applies), so answers are exact whatever the reader skips; value pruning on primary-key tables is
  * further limited per split by the scan (see `SplitReadMode`). Tables of other catalogs, tables
  * without shared-shredding columns and write targets are left alone.
  */
object PushMapAccessIntoStrataScans extends Rule[LogicalPlan] with PredicateHelper {

  override def apply(plan: LogicalPlan): LogicalPlan = {
    val all = plan.collect {
      case r @ DataSourceV2Relation(t: StrataTable, _, _, _, _, _)
          if shreddedColumns(r, t).nonEmpty =>
        (r, t)
    }
    // A relation node that occurs twice with the same attribute ids (e.g. a plan fragment reused) cannot
    // tell its filters apart from the other occurrence's: leave those alone.
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

  /** The relation's shared-shredding `MAP<STRING, V>` columns (current table options), by attribute
    * id.
    */
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
