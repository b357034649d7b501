package dev.strata.spark.search

import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.catalyst.expressions.{
  Attribute,
  IntegerLiteral,
  InterpretedOrdering,
  NamedExpression,
  SubqueryExpression,
  UnsafeProjection
}
import org.apache.spark.sql.catalyst.plans.logical.{Limit, LogicalPlan, Project, ReturnAnswer, Sort}
import org.apache.spark.sql.connector.read.LocalScan
import org.apache.spark.sql.execution.{LocalTableScanExec, SparkPlan, SparkStrategy}
import org.apache.spark.sql.execution.datasources.v2.DataSourceV2ScanRelation

/** Plans a `full_text_search` answered on the driver (its scan is a [[LocalScan]]) as one local
  * relation: the hits are ranked, cut at k and projected while planning (`Limit`, `Project` and a
  * global `Sort` over the scan, in the shapes the optimizer leaves them), so collecting the answer
  * runs no Spark job.
  *
  * Why a planner strategy and not an optimizer rule: the search's scan only exists after V2 scan
  * push-down, which runs after every rule an extension can inject into the optimizer; and without
  * this strategy the `Sort` + `Limit` of the function's plan become a `TakeOrderedAndProject` whose
  * collect schedules a job over the handful of local rows. Plans of searches run as executor tasks,
  * or with anything else between the limit and the scan, are left to Spark.
  */
object DriverSearchStrategy extends SparkStrategy {

  override def apply(plan: LogicalPlan): Seq[SparkPlan] = plan match {
    case ReturnAnswer(child) => answer(child).toSeq
    case other               => answer(other).toSeq
  }

  private def answer(plan: LogicalPlan): Option[SparkPlan] = plan match {
    case Limit(IntegerLiteral(k), Project(list, Ranked(rows, output))) if list.forall(evaluable) =>
      Some(local(list, output, rows.take(k)))
    case Project(list, Limit(IntegerLiteral(k), Ranked(rows, output))) if list.forall(evaluable) =>
      Some(local(list, output, rows.take(k)))
    case Limit(IntegerLiteral(k), Ranked(rows, output)) =>
      Some(LocalTableScanExec(output, rows.take(k), None))
    case _ => None
  }

  private def local(
      list: Seq[NamedExpression],
      output: Seq[Attribute],
      rows: Seq[InternalRow]
  ): SparkPlan = {
    val project = UnsafeProjection.create(list, output)
    LocalTableScanExec(list.map(_.toAttribute), rows.map(r => project(r).copy()), None)
  }

  private def evaluable(e: NamedExpression): Boolean =
    e.deterministic && e.find(_.isInstanceOf[SubqueryExpression]).isEmpty

  /** A global sort directly over a driver-side search: all its rows, ranked. */
  private object Ranked {
    def unapply(plan: LogicalPlan): Option[(Seq[InternalRow], Seq[Attribute])] = plan match {
      case Sort(order, true, scan: DataSourceV2ScanRelation, _)
          if scan.relation.table.isInstanceOf[FullTextSearchTable] && scan.scan
            .isInstanceOf[LocalScan] =>
        val ordering = new InterpretedOrdering(order, scan.output)
        Some((scan.scan.asInstanceOf[LocalScan].rows().toSeq.sorted(ordering), scan.output))
      case _ => None
    }
  }
}
