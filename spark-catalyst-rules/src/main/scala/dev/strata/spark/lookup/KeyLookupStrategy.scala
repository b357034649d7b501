package dev.strata.spark.lookup

import dev.strata.spark.read.NarrowableScan

import scala.jdk.CollectionConverters._
import scala.jdk.OptionConverters._

import org.apache.spark.sql.SparkSessionExtensions
import org.apache.spark.sql.catalyst.expressions.{
  And,
  Attribute,
  EqualTo,
  Expression,
  In,
  InSet,
  Literal,
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
  * job, when the scan only prunes and its files need no merge; Spark still applies the whole
  * filter.
  */
object KeyLookupStrategy extends SparkStrategy with PredicateHelper {

  private val MaxRows = 10000

  def register(extensions: SparkSessionExtensions): Unit =
    extensions.injectPlannerStrategy(_ => KeyLookupStrategy)

  // Spark plans a scan with the projections and filters above it as one operation.
  override def apply(plan: LogicalPlan): Seq[SparkPlan] = plan match {
    case PhysicalOperation(projects, filters, relation: DataSourceV2ScanRelation)
        if filters.nonEmpty =>
      relation.scan match {
        case scan: NarrowableScan =>
          keyValues(filters, relation.output).iterator
            .flatMap { case (a, values) =>
              scan.lookUp(a.name, values.map(_.asInstanceOf[AnyRef]).asJava, MaxRows).toScala
            }
            .nextOption()
            .map { rows =>
              val filtered = FilterExec(
                filters.reduceLeft(And),
                LocalTableScanExec(relation.output, rows.toSeq, None)
              )
              if (projects.map(_.toAttribute) == relation.output) filtered
              else ProjectExec(projects, filtered)
            }
            .toSeq
        case _ => Nil
      }
    case _ => Nil
  }

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
