package dev.strata.spark.pushdown

import java.util.Locale

import dev.strata.spark.read.MapPushdown
import dev.strata.spark.search.TextMatch

import org.apache.spark.sql.catalyst.expressions.{
  And,
  Attribute,
  AttributeReference,
  ExprId,
  Expression,
  IsNotNull,
  OuterReference,
  PredicateHelper,
  SubqueryExpression
}
import org.apache.spark.sql.catalyst.optimizer.ColumnPruning
import org.apache.spark.sql.catalyst.plans.logical._
import org.apache.spark.sql.execution.datasources.v2.DataSourceV2Relation
import org.apache.spark.sql.types.MapType

/** Rewrites constant-key lookups `m['k']` of a shared-shredding map into scan columns (one per
  * selected key, `MapPushdown.keyColumnName`), dropping `m IS NOT NULL` where a key conjunct
  * implies it, so a query using `m` only through such lookups reads no map. Applied only where
  * every answer provably stays: the map flows only through id-keeping operators, no subquery refers
  * to it, no `text_match` in the plan, no relation column named like a key column.
  */
private[pushdown] object MapKeyColumns extends PredicateHelper {

  /** `keysOf`: map column attribute id -> its selected keys, for the relations pushed down. */
  def apply(plan: LogicalPlan, keysOf: Map[ExprId, Seq[String]]): LogicalPlan = {
    if (keysOf.isEmpty || plan.exists(_.expressions.exists(_.exists(_.isInstanceOf[TextMatch])))) {
      return plan
    }
    val relations = plan.collect {
      case r: DataSourceV2Relation if r.output.exists(a => keysOf.contains(a.exprId)) => r
    }
    val columns: Map[ExprId, Seq[(String, AttributeReference)]] = relations.flatMap { r =>
      val taken = r.output.map(_.name.toLowerCase(Locale.ROOT))
      val candidates = r.output.collect {
        case m: AttributeReference
            if keysOf.contains(m.exprId) && flowsById(plan, m.exprId) &&
              !inSubquery(plan, m.exprId) =>
          val valueType = m.dataType.asInstanceOf[MapType].valueType
          m.exprId -> keysOf(m.exprId).map(k =>
            k -> AttributeReference(MapPushdown.keyColumnName(m.name, k), valueType)()
          )
      }
      val names = taken ++ candidates.flatMap(_._2.map(_._2.name.toLowerCase(Locale.ROOT)))
      if (names.distinct.size == names.size) candidates else Nil
    }.toMap
    if (columns.isEmpty) return plan

    val byKey: Map[(ExprId, String), AttributeReference] = columns.flatMap { case (id, ks) =>
      ks.map { case (k, a) => (id, k) -> a }
    }
    val rewritten = plan transformUp {
      case r: DataSourceV2Relation if r.output.exists(a => columns.contains(a.exprId)) =>
        r.copy(output =
          r.output ++ r.output.flatMap(a => columns.getOrElse(a.exprId, Nil).map(_._2))
        )
      case p @ Project(list, _) if list.exists(a => columns.contains(a.exprId)) =>
        // the map passes through: so do its key columns (unused ones are pruned below)
        p.copy(projectList = list ++ list.flatMap(a => columns.getOrElse(a.exprId, Nil).map(_._2)))
      case other => other
    } transformUp { case node =>
      node.transformExpressions {
        case MapAccess(access) if byKey.contains((access.column.exprId, access.key)) =>
          byKey((access.column.exprId, access.key))
      }
    } transformUp { case f @ Filter(condition, _) =>
      val conjuncts = splitConjunctivePredicates(condition)
      val implied = conjuncts.filter {
        case IsNotNull(m: Attribute) if columns.contains(m.exprId) =>
          val keyIds = columns(m.exprId).map(_._2.exprId).toSet
          conjuncts.exists(c => rejectsNull(c, keyIds))
        case _ => false
      }
      if (implied.isEmpty) f
      else f.copy(condition = conjuncts.filterNot(c => implied.exists(_ eq c)).reduce(And))
    }
    ColumnPruning(rewritten)
  }

  /** Whether every operator the column flows into keeps attributes by id. */
  private def flowsById(plan: LogicalPlan, id: ExprId): Boolean =
    !plan.exists { node =>
      node.children.exists(_.output.exists(_.exprId == id)) && !(node match {
        case _: Project | _: Filter | _: Join | _: Sort | _: Aggregate | _: Window |
            _: GlobalLimit | _: LocalLimit | _: Offset | _: Tail | _: SubqueryAlias | _: Sample |
            _: Repartition | _: RepartitionByExpression | _: RebalancePartitions |
            _: ReturnAnswer =>
          true
        case _ => false
      })
    } && !plan.output.exists(_.exprId == id)

  /** Whether a subquery anywhere in the plan refers to the column. */
  private def inSubquery(plan: LogicalPlan, id: ExprId): Boolean = {
    def mentions(e: Expression): Boolean = e.exists {
      case a: Attribute      => a.exprId == id
      case OuterReference(a) => a.exprId == id
      case s: SubqueryExpression =>
        s.plan.collectWithSubqueries {
          case p if p.expressions.exists(mentions) => p
        }.nonEmpty
      case _ => false
    }
    plan.exists(_.expressions.exists(_.exists {
      case s: SubqueryExpression => mentions(s)
      case _                     => false
    }))
  }

  /** Whether conjunct `c` is false or NULL whenever one of the attributes `ids` is NULL. */
  private def rejectsNull(c: Expression, ids: Set[ExprId]): Boolean = c match {
    case IsNotNull(e) => nullIfNull(e, ids)
    case e            => nullIfNull(e, ids)
  }

  private def nullIfNull(e: Expression, ids: Set[ExprId]): Boolean = e match {
    case a: Attribute          => ids.contains(a.exprId)
    case e if e.nullIntolerant => e.children.exists(nullIfNull(_, ids))
    case _                     => false
  }
}
