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

/** Which keys of which map columns a whole query plan needs (extended to every operator). A column
  * qualifies for selected keys only when every use of it, anywhere in the plan and in its
  * subqueries, is a constant-key lookup (`m['k']`, `element_at(m, 'k')`) or a null test of the map
  * (`m IS [NOT] NULL`, which selected-key reads preserve: a non-null map reads back non-null). Any
  * other use reads the whole map: the column in the query result, passed to a function (`size(m)`,
  * `map_keys(m)`, `explode(m)`, a UDF), a non-constant key, or flowing through an operator that
  * renames its columns positionally (UNION, EXPAND, a write, any operator not known to keep
  * attributes by id).
  */
private[pushdown] final class MapKeyUses(targets: Set[ExprId]) {

  private val keys = mutable.LinkedHashMap[ExprId, mutable.LinkedHashSet[String]]()
  private val whole = mutable.Set[ExprId]()

  /** The keys of a column, or None when the column must be read whole or is not looked up at all.
    */
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

  /** Operators whose output attributes are their children's (same ids) or new ones computed by
    * expressions.
    */
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
