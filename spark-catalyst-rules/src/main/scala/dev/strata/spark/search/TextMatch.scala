package dev.strata.spark.search

import dev.strata.index.search.{SearchQueries, TextMatcher}

import org.apache.spark.sql.catalyst.analysis.TypeCheckResult
import org.apache.spark.sql.catalyst.expressions.{Attribute, BinaryExpression, Expression}
import org.apache.spark.sql.catalyst.expressions.codegen.CodegenFallback
import org.apache.spark.sql.types.{BooleanType, DataType, StringType}

/** What [[ResolveTextMatch]] found for a `text_match` call: the Strata table and full-text indexed
  * column its first argument reads, the constant query, and the matcher built with that table's
  * analyzer (not part of equality: it follows from the other three).
  */
final case class TextMatchBinding(table: String, column: String, query: String)(
    val matcher: TextMatcher
)

/** `text_match(column, query)`: true when the text in `column` matches the full-text `query`
  * (Lucene classic syntax or Paimon's JSON query DSL), exactly as the table's full-text archives
  * answer it — analysed with the analyzer the table's archives use and parsed by the same parser
  * ([[TextMatcher]]); NULL for a NULL text. Deterministic.
  *
  * `column` must be a full-text indexed column of a Strata table and `query` a constant string: the
  * function is first built unbound, and [[ResolveTextMatch]] binds it to the table the column comes
  * from (or reports why it cannot). In a WHERE clause over a Strata table
  * [[PushTextMatchIntoStrataScans]] also pushes it into the scan, which then reads only the rows
  * that can match; Spark still evaluates it on every row it reads, so the answer never depends on
  * the pushdown.
  */
case class TextMatch(left: Expression, right: Expression, binding: Option[TextMatchBinding])
    extends BinaryExpression
    with CodegenFallback {

  override def dataType: DataType = BooleanType

  override def nullable: Boolean = true

  override def prettyName: String = TextMatch.Name

  override def checkInputDataTypes(): TypeCheckResult = {
    (left.dataType, right.dataType) match {
      case (_: StringType, _: StringType) => TypeCheckResult.TypeCheckSuccess
      case (l, r) =>
        TypeCheckResult.TypeCheckFailure(
          s"${TextMatch.Name} expects (STRING column, STRING query), found (${l.simpleString}, ${r.simpleString})"
        )
    }
  }

  override protected def nullSafeEval(text: Any, query: Any): Any = binding match {
    case Some(b) => b.matcher.matches(text.toString)
    case None =>
      throw new IllegalStateException(
        s"Cannot evaluate ${TextMatch.describe(this)}: it was not bound to a full-text indexed column. " +
          "This is a bug in Strata's analyzer rules."
      )
  }

  override protected def withNewChildrenInternal(
      newLeft: Expression,
      newRight: Expression
  ): TextMatch =
    copy(left = newLeft, right = newRight)
}

object TextMatch {
  val Name = "text_match"

  /** The call as a user wrote it, e.g. `text_match(body, 'disk')` (columns by their names,
    * unqualified).
    */
  def describe(t: TextMatch): String = s"$Name(${columnText(t.left)}, ${columnText(t.right)})"

  def columnText(e: Expression): String = e match {
    case a: Attribute => a.name
    case other        => SearchQueries.shortened(other.sql) // a query may be megabytes long
  }
}
