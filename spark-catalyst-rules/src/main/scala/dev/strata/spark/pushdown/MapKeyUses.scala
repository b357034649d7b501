package dev.strata.spark.pushdown

import scala.collection.mutable

import org.apache.spark.sql.catalyst.expressions.{
  Attribute,
  ExprId,
  Expression,
  IsNotNull,
  IsNull,
  SubqueryExpression
}
import org.apache.spark.sql.catalyst.plans.logical._
import org.apache.spark.sql.execution.datasources.v2.DataSourceV2Relation

/** Which keys of which map columns a whole plan needs: a column gets selected keys only when every
  * use, subqueries included, is a constant-key lookup or a null test of the map; anything else
  * (including positional renames: UNION, EXPAND, writes) reads the whole map.
  */
private[pushdown] final class MapKeyUses(targets: Set[ExprId]) {

  private val keys = mutable.LinkedHashMap[ExprId, mutable.LinkedHashSet[String]]()
  private val whole = mutable.Set[ExprId]()

  /** The keys of a column, or None when it is read whole or not looked up. */
  def selectedKeys(id: ExprId): Option[Seq[String]] =
    if (whole.contains(id)) None else keys.get(id).filter(_.nonEmpty).map(_.toSeq)

  def collect(root: LogicalPlan): this.type = {
    visitPlan(root, isRoot = true)
    this
  }

  private def isTarget(a: Attribute): Boolean = targets.contains(a.exprId)

  private def visitPlan(plan: LogicalPlan, isRoot: Boolean): Unit = {
    if (isRoot) plan.output.filter(isTarget).foreach(a => whole += a.exprId)
    plan match {
      case _: DataSourceV2Relation => // the source of the columns, not a use
      case p: Project =>
        p.projectList.foreach {
          case _: Attribute => // passed through unchanged: its uses are above
          case e            => visitExpression(e)
        }
      case a: Aggregate =>
        a.groupingExpressions.foreach(visitExpression)
        a.aggregateExpressions.foreach {
          case _: Attribute =>
          case e            => visitExpression(e)
        }
      case other =>
        other.expressions.foreach(visitExpression)
    }
    if (!keepsAttributesById(plan)) {
      plan.children.foreach(_.output.filter(isTarget).foreach(a => whole += a.exprId))
    }
    plan.children.foreach(visitPlan(_, isRoot = false))
  }

  /** Operators whose output attributes keep their children's ids or are newly computed. */
  private def keepsAttributesById(plan: LogicalPlan): Boolean = plan match {
    case _: Project | _: Filter | _: Join | _: Sort | _: Aggregate | _: Window | _: GlobalLimit |
        _: LocalLimit | _: Offset | _: Tail | _: SubqueryAlias | _: Sample | _: Repartition |
        _: RepartitionByExpression | _: RebalancePartitions | _: Generate | _: Subquery |
        _: ReturnAnswer | _: Deduplicate | _: Distinct =>
      true
    case _ => plan.children.isEmpty
  }

  private def visitExpression(e: Expression): Unit = e match {
    case MapAccess(access) if isTarget(access.column) =>
      if (!whole.contains(access.column.exprId)) {
        keys.getOrElseUpdate(access.column.exprId, mutable.LinkedHashSet[String]()) += access.key
      }
    case IsNotNull(MapAccess.Column(a)) if isTarget(a) =>
    case IsNull(MapAccess.Column(a)) if isTarget(a)    =>
    case MapAccess.Column(a) if isTarget(a) =>
      whole += a.exprId
    case s: SubqueryExpression =>
      s.children.foreach(visitExpression) // outer attributes and pulled-up correlated conditions
      visitPlan(s.plan, isRoot = true)
    case other =>
      other.children.foreach(visitExpression)
  }
}
