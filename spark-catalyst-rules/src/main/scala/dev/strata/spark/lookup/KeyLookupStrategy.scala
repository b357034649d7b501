package dev.strata.spark.lookup

import dev.strata.spark.local.DriverRows
import dev.strata.spark.read.NarrowableScan

import scala.jdk.CollectionConverters._
import scala.jdk.OptionConverters._

import org.apache.spark.sql.SparkSessionExtensions
import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.catalyst.expressions.{
  And,
  Attribute,
  EqualTo,
  Expression,
  In,
  InSet,
  Literal,
  NamedExpression,
  PredicateHelper
}
import org.apache.spark.sql.catalyst.planning.PhysicalOperation
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan
import org.apache.spark.sql.execution.{
  FilterExec,
  LocalTableScanExec,
  ProjectExec,
  SparkPlan,
  SparkStrategy
}
import org.apache.spark.sql.execution.datasources.v2.DataSourceV2ScanRelation

/** A filter that fixes a Strata table's leading sort-key column to a few values (`id = 5`, `id IN
  * (...)`) reads those rows on the driver by key ([[NarrowableScan.lookUp]]) instead of in a Spark
  * job, when the scan only prunes and its files need no merge; the whole filter is still applied to
  * them.
  */
object KeyLookupStrategy extends SparkStrategy with PredicateHelper {

  private val MaxRows = 10000

  def register(extensions: SparkSessionExtensions): Unit =
    extensions.injectPlannerStrategy(_ => KeyLookupStrategy)

  override def apply(plan: LogicalPlan): Seq[SparkPlan] = lookUp(plan).map { l =>
    local(l) match {
      case Some(rows) => LocalTableScanExec(l.projects.map(_.toAttribute), rows, None)
      case None =>
        val filtered = FilterExec(l.condition, LocalTableScanExec(l.output, l.rows, None))
        if (l.projected) ProjectExec(l.projects, filtered) else filtered
    }
  }.toSeq

  /** The rows of `plan`, read by key and filtered and projected on the driver, when it is such a
    * filter over a Strata scan and its expressions can be evaluated there; otherwise `None`.
    */
  object Answered {
    def unapply(plan: LogicalPlan): Option[Seq[InternalRow]] = lookUp(plan).flatMap(local)
  }

  private case class LookedUp(
      rows: Seq[InternalRow],
      projects: Seq[NamedExpression],
      condition: Expression,
      output: Seq[Attribute]
  ) {
    def projected: Boolean = projects.map(_.toAttribute) != output
  }

  // Spark plans a scan with the projections and filters above it as one operation.
  private def lookUp(plan: LogicalPlan): Option[LookedUp] = plan match {
    case PhysicalOperation(projects, filters, relation: DataSourceV2ScanRelation)
        if filters.nonEmpty =>
      relation.scan match {
        case scan: NarrowableScan =>
          keyValues(filters, relation.output).iterator
            .flatMap { case (a, values) =>
              scan.lookUp(a.name, values.map(_.asInstanceOf[AnyRef]).asJava, MaxRows).toScala
            }
            .nextOption()
            .map(rows => LookedUp(rows.toSeq, projects, filters.reduceLeft(And), relation.output))
        case _ => None
      }
    case _ => None
  }

  /** The looked-up rows filtered and projected on the driver, so the statement runs no Spark job;
    * `None` when an expression cannot be evaluated there or fails.
    */
  private def local(l: LookedUp): Option[Seq[InternalRow]] =
    if (!DriverRows.evaluable(l.condition) || !l.projects.forall(DriverRows.evaluable)) None
    else
      DriverRows
        .filter(l.rows, l.condition, l.output)
        .flatMap(kept =>
          if (l.projected) DriverRows.project(kept, l.projects, l.output) else Some(kept)
        )

  /** Per column of `output`, the non-null literal values a conjunct `a = v` or `a IN (...)` allows.
    */
  private def keyValues(
      filters: Seq[Expression],
      output: Seq[Attribute]
  ): Seq[(Attribute, Seq[Any])] =
    filters
      .flatMap(splitConjunctivePredicates)
      .collect {
        case EqualTo(a: Attribute, Literal(v, _)) if v != null => (a, Seq(v))
        case EqualTo(Literal(v, _), a: Attribute) if v != null => (a, Seq(v))
        case In(a: Attribute, list) if list.nonEmpty && list.forall {
              case Literal(v, _) => v != null
              case _             => false
            } =>
          (a, list.map(_.asInstanceOf[Literal].value).distinct)
        case InSet(a: Attribute, set) if set.nonEmpty && !set.contains(null) => (a, set.toSeq)
      }
      .filter { case (a, _) => output.exists(_.exprId == a.exprId) }
}
