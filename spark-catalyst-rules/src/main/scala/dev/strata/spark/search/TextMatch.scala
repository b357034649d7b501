package dev.strata.spark.search

import dev.strata.index.search.{SearchQueries, TextMatcher}

import org.apache.spark.sql.catalyst.analysis.TypeCheckResult
import org.apache.spark.sql.catalyst.expressions.{Attribute, BinaryExpression, Expression}
import org.apache.spark.sql.catalyst.expressions.codegen.CodegenFallback
import org.apache.spark.sql.types.{BooleanType, DataType, StringType}

/** What [[ResolveTextMatch]] bound a `text_match` to; `matcher`, derived, is outside equality. */
final case class TextMatchBinding(table: String, column: String, query: String)(
    val matcher: TextMatcher
)

/** `text_match(column, query)`: whether the text matches the full-text `query` as the table's
  * archives answer it ([[TextMatcher]]); NULL for a NULL text. Bound by [[ResolveTextMatch]].
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

  /** The call as written, e.g. `text_match(body, 'disk')`. */
  def describe(t: TextMatch): String = s"$Name(${columnText(t.left)}, ${columnText(t.right)})"

  def columnText(e: Expression): String = e match {
    case a: Attribute => a.name
    case other        => SearchQueries.shortened(other.sql) // a query may be megabytes long
  }
}
