package dev.strata.spark.write

import dev.strata.spark.table.StrataTable

import org.apache.spark.sql.SparkSessionExtensions
import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.catalyst.expressions.{Expression, NonSQLExpression, UnaryExpression}
import org.apache.spark.sql.catalyst.expressions.codegen.{CodegenContext, ExprCode, FalseLiteral}
import org.apache.spark.sql.catalyst.expressions.codegen.Block._
import org.apache.spark.sql.catalyst.expressions.objects.AssertNotNull
import org.apache.spark.sql.catalyst.analysis.EliminateSubqueryAliases
import org.apache.spark.sql.catalyst.plans.logical.{
  LogicalPlan,
  MergeIntoTable,
  RowLevelWrite,
  UpdateTable,
  V2WriteCommand
}
import org.apache.spark.sql.catalyst.rules.Rule
import org.apache.spark.sql.execution.datasources.v2.DataSourceV2Relation
import org.apache.spark.sql.types.DataType

import scala.jdk.CollectionConverters._

/** Registers [[NullIntoNotNullColumns]]. */
object NullIntoNotNullColumnsExtension extends (SparkSessionExtensions => Unit) {

  override def apply(extensions: SparkSessionExtensions): Unit = {
    extensions.injectPostHocResolutionRule(_ => NullIntoNotNullColumns)
  }
}

/** Spark checks a write's NOT NULL columns with `AssertNotNull`, whose error names neither the
  * table nor the column's role and suggests Scala's `Option`. In writes into a Strata table this
  * rule puts the same check in [[NotNullColumn]], whose error says which table and column, and that
  * a primary-key column cannot hold NULL. Only the checks Spark's output resolution added (their
  * path is the column's name) change; those of a Dataset's deserializers stay.
  */
object NullIntoNotNullColumns extends Rule[LogicalPlan] {

  override def apply(plan: LogicalPlan): LogicalPlan = plan.transformDown {
    case write if target(write).isDefined =>
      val table = target(write).get
      val columns = table.schema().fieldNames.map(_.toLowerCase).toSet
      val keys = table.paimonTable().primaryKeys().asScala.map(_.toLowerCase).toSet
      write.transformAllExpressions(replace(table, columns, keys))
  }

  /** The Strata table `plan` writes into: output resolution and row-level assignments add the
    * checks before Spark rewrites UPDATE and MERGE into row-level writes.
    */
  private def target(plan: LogicalPlan): Option[StrataTable] = plan match {
    case rowLevel: RowLevelWrite => strataTable(rowLevel.originalTable)
    case write: V2WriteCommand   => strataTable(write.table)
    case update: UpdateTable     => strataTable(update.table)
    case merge: MergeIntoTable   => strataTable(merge.targetTable)
    case _                       => None
  }

  private def replace(
      table: StrataTable,
      columns: Set[String],
      keys: Set[String]
  ): PartialFunction[Expression, Expression] = {
    case AssertNotNull(child, path) if path.nonEmpty && columns.contains(path.head.toLowerCase) =>
      NotNullColumn(child, message(table, path, keys))
  }

  private def message(table: StrataTable, path: Seq[String], keys: Set[String]): String = {
    val column = path.mkString(".")
    if (path.size == 1 && keys.contains(column.toLowerCase)) {
      s"Cannot write NULL into primary-key column $column of ${table.name()}: Paimon keys every " +
        s"row by its primary key, so its columns are NOT NULL. Leave those rows out (WHERE $column " +
        s"IS NOT NULL) or give them a key (coalesce($column, ...))."
    } else {
      val what = if (path.size == 1) "column" else "field"
      s"Cannot write NULL into $what $column of ${table.name()}: it is declared NOT NULL. Leave " +
        s"those rows out, give the $what a value (coalesce), or allow NULL with ALTER TABLE " +
        s"${table.name()} ALTER COLUMN $column DROP NOT NULL."
    }
  }

  private def strataTable(relation: LogicalPlan): Option[StrataTable] =
    EliminateSubqueryAliases(relation) match {
      case DataSourceV2Relation(t: StrataTable, _, _, _, _, _) => Some(t)
      case _                                                   => None
    }
}

/** `child`, failing the task with `message` on NULL, as Spark's `AssertNotNull` does. */
case class NotNullColumn(child: Expression, message: String)
    extends UnaryExpression
    with NonSQLExpression {

  override def dataType: DataType = child.dataType

  override def nullable: Boolean = false

  override def foldable: Boolean = false

  override def eval(input: InternalRow): Any = {
    val value = child.eval(input)
    if (value == null) {
      throw new IllegalArgumentException(message)
    }
    value
  }

  override protected def doGenCode(ctx: CodegenContext, ev: ExprCode): ExprCode = {
    val childGen = child.genCode(ctx)
    val text = ctx.addReferenceObj("message", message)
    val code = childGen.code + code"""
      if (${childGen.isNull}) {
        throw new IllegalArgumentException($text);
      }
      """
    ev.copy(code = code, isNull = FalseLiteral, value = childGen.value)
  }

  override protected def withNewChildInternal(newChild: Expression): NotNullColumn =
    copy(child = newChild)
}
