package dev.strata.spark

import dev.strata.spark.errors.StrataErrors
import org.apache.spark.sql.SparkSessionExtensions
import org.apache.spark.sql.catalyst.{FunctionIdentifier, InternalRow, TableIdentifier}
import org.apache.spark.sql.catalyst.analysis.UnresolvedProcedure
import org.apache.spark.sql.catalyst.expressions.{
  Expression,
  NamedArgumentExpression,
  UnaryExpression,
  Unevaluable
}
import org.apache.spark.sql.catalyst.expressions.codegen.CodegenFallback
import org.apache.spark.sql.catalyst.parser.{ParameterContext, ParserInterface}
import org.apache.spark.sql.catalyst.plans.logical.{Call, LogicalPlan}
import org.apache.spark.sql.types.{DataType, StructType}

/** Names the procedure and argument of a non-constant CALL argument, where Spark would only say
  * "requirement failed: args must be foldable", by wrapping each in a [[ProcedureArgument]].
  */
object ProcedureArguments extends (SparkSessionExtensions => Unit) {

  override def apply(extensions: SparkSessionExtensions): Unit =
    extensions.injectParser((_, parser) => new Parser(parser))

  private[spark] def wrap(plan: LogicalPlan): LogicalPlan = plan match {
    case c @ Call(p @ UnresolvedProcedure(nameParts), args, _) =>
      val name = nameParts.mkString(".")
      c.copy(args = args.zipWithIndex.map {
        case (NamedArgumentExpression(key, value), _) =>
          NamedArgumentExpression(key, ProcedureArgument(value, name, key))
        case (value, i) => ProcedureArgument(value, name, s"${i + 1}")
      })
    case other => other
  }

  /** Spark's parser, with the arguments of a CALL wrapped; everything else is the delegate's. */
  private final class Parser(delegate: ParserInterface) extends ParserInterface {
    override def parsePlan(sqlText: String): LogicalPlan = wrap(delegate.parsePlan(sqlText))
    override def parsePlanWithParameters(sqlText: String, context: ParameterContext): LogicalPlan =
      wrap(delegate.parsePlanWithParameters(sqlText, context))
    override def parseExpression(sqlText: String): Expression = delegate.parseExpression(sqlText)
    override def parseTableIdentifier(sqlText: String): TableIdentifier =
      delegate.parseTableIdentifier(sqlText)
    override def parseFunctionIdentifier(sqlText: String): FunctionIdentifier =
      delegate.parseFunctionIdentifier(sqlText)
    override def parseMultipartIdentifier(sqlText: String): Seq[String] =
      delegate.parseMultipartIdentifier(sqlText)
    override def parseQuery(sqlText: String): LogicalPlan = delegate.parseQuery(sqlText)
    override def parseRoutineParam(sqlText: String): StructType =
      delegate.parseRoutineParam(sqlText)
    override def parseTableSchema(sqlText: String): StructType = delegate.parseTableSchema(sqlText)
    override def parseDataType(sqlText: String): DataType = delegate.parseDataType(sqlText)
  }
}

/** One CALL argument: its value when constant, else an error naming procedure and argument. It
  * claims to be foldable so Spark asks it for the value (during analysis, before any optimizer).
  */
case class ProcedureArgument(child: Expression, procedure: String, argument: String)
    extends UnaryExpression
    with CodegenFallback {

  override def dataType: DataType = child.dataType

  override def nullable: Boolean = child.nullable

  override def foldable: Boolean = true

  override def eval(input: InternalRow): Any = {
    if (!child.foldable || child.exists(_.isInstanceOf[Unevaluable])) {
      throw StrataErrors.analysis(
        s"Cannot call $procedure: argument $argument must be a constant, found ${child.sql}, which is " +
          "only known when a query runs. Pass a literal value, e.g. a timestamp as '2026-11-01 00:00:00' " +
          "(compute it first with SELECT if needed)."
      )
    }
    child.eval(input)
  }

  override def sql: String = child.sql

  override def toString: String = child.toString

  override protected def withNewChildInternal(newChild: Expression): ProcedureArgument =
    copy(child = newChild)
}
