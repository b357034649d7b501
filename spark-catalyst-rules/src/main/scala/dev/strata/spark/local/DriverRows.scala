package dev.strata.spark.local

import scala.util.control.NonFatal

import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.catalyst.expressions.{
  Attribute,
  AttributeReference,
  AttributeSeq,
  BindReferences,
  Expression,
  InterpretedUnsafeProjection,
  Predicate,
  SubqueryExpression,
  UnsafeProjection,
  Unevaluable
}

/** Spark's own expressions evaluated over a few rows on the driver while planning, so that a plan
  * answered there runs no Spark job. `None` when an expression fails (an ANSI error): the caller
  * then leaves the operator to Spark, which raises the error as usual. Expressions are interpreted,
  * not compiled: for a few rows, generating code (which differs with every statement's literals)
  * costs far more than evaluating it.
  */
object DriverRows {

  /** Whether `e` can be evaluated here: deterministic, no subquery, nothing only Spark's execution
    * can evaluate.
    */
  def evaluable(e: Expression): Boolean =
    e.deterministic && !e.exists {
      case _: SubqueryExpression                                 => true
      case u: Unevaluable if !u.isInstanceOf[AttributeReference] => true
      case _                                                     => false
    }

  def filter(
      rows: Seq[InternalRow],
      condition: Expression,
      input: Seq[Attribute]
  ): Option[Seq[InternalRow]] =
    attempt {
      rows.filter(predicate(condition, input))
    }

  /** `condition` over rows of `input`, interpreted; may throw as the expression does. */
  def predicate(condition: Expression, input: Seq[Attribute]): InternalRow => Boolean = {
    val predicate =
      Predicate.createInterpreted(BindReferences.bindReference(condition, AttributeSeq(input)))
    predicate.initialize(0)
    predicate.eval
  }

  def project(
      rows: Seq[InternalRow],
      list: Seq[Expression],
      input: Seq[Attribute]
  ): Option[Seq[InternalRow]] =
    attempt {
      val project = projection(list, input)
      rows.map(r => project(r).copy())
    }

  /** `list` over rows of `input`, interpreted. */
  def projection(list: Seq[Expression], input: Seq[Attribute]): UnsafeProjection = {
    val projection =
      InterpretedUnsafeProjection.createProjection(
        BindReferences.bindReferences(list, AttributeSeq(input))
      )
    projection.initialize(0)
    projection
  }

  def attempt(rows: => Seq[InternalRow]): Option[Seq[InternalRow]] =
    try Some(rows)
    catch { case NonFatal(_) => None }
}
