package dev.strata.spark.pushdown

import dev.strata.shredding.pushdown.MapPredicate
import dev.strata.shredding.pushdown.MapPredicate.Op

import org.apache.spark.sql.catalyst.expressions._
import org.apache.spark.sql.types._
import org.apache.spark.unsafe.types.UTF8String

/** Translates Catalyst conditions into [[MapPredicate]]s over map lookups, only to skip data (the
  * Filter stays). Only null-rejecting leaves translate, with literals of exactly the value type and
  * no cast on the map side (it can change the order); AND keeps what translates, OR needs both.
  */
private[pushdown] object MapPredicateTranslation {

  /** @param column the map columns the lookups may use, by attribute id */
  def translate(e: Expression, columns: Set[ExprId]): Option[MapPredicate] = e match {
    case And(l, r) =>
      (translate(l, columns), translate(r, columns)) match {
        case (Some(a), Some(b)) => Some(MapPredicate.and(a, b))
        case (a, b)             => a.orElse(b)
      }
    case Or(l, r) =>
      for (a <- translate(l, columns); b <- translate(r, columns)) yield MapPredicate.or(a, b)
    case _ => leaf(e).filter(l => columns.contains(l._1.column.exprId)).map(_._2)
  }

  private def leaf(e: Expression): Option[(MapAccess, MapPredicate)] = e match {
    case EqualTo(MapAccess(a), ValueLiteral(v))            => cmp(a, Op.EQ, v, e)
    case EqualTo(ValueLiteral(v), MapAccess(a))            => cmp(a, Op.EQ, v, e)
    case EqualNullSafe(MapAccess(a), ValueLiteral(v))      => cmp(a, Op.EQ, v, e)
    case EqualNullSafe(ValueLiteral(v), MapAccess(a))      => cmp(a, Op.EQ, v, e)
    case Not(EqualTo(MapAccess(a), ValueLiteral(v)))       => cmp(a, Op.NOT_EQ, v, e)
    case Not(EqualTo(ValueLiteral(v), MapAccess(a)))       => cmp(a, Op.NOT_EQ, v, e)
    case LessThan(MapAccess(a), ValueLiteral(v))           => cmp(a, Op.LT, v, e)
    case LessThan(ValueLiteral(v), MapAccess(a))           => cmp(a, Op.GT, v, e)
    case LessThanOrEqual(MapAccess(a), ValueLiteral(v))    => cmp(a, Op.LT_EQ, v, e)
    case LessThanOrEqual(ValueLiteral(v), MapAccess(a))    => cmp(a, Op.GT_EQ, v, e)
    case GreaterThan(MapAccess(a), ValueLiteral(v))        => cmp(a, Op.GT, v, e)
    case GreaterThan(ValueLiteral(v), MapAccess(a))        => cmp(a, Op.LT, v, e)
    case GreaterThanOrEqual(MapAccess(a), ValueLiteral(v)) => cmp(a, Op.GT_EQ, v, e)
    case GreaterThanOrEqual(ValueLiteral(v), MapAccess(a)) => cmp(a, Op.LT_EQ, v, e)
    case In(MapAccess(a), items) if items.forall(_.isInstanceOf[Literal]) =>
      in(a, items.map { case Literal(v, dt) => (v, dt) })
    case InSet(MapAccess(a), values) =>
      in(a, values.toSeq.map(v => (v, a.valueType)))
    case IsNotNull(MapAccess(a)) if pushable(a.valueType) =>
      Some((a, MapPredicate.leaf(a.column.name, a.key, Op.IS_NOT_NULL)))
    case StartsWith(MapAccess(a), Literal(s: UTF8String, StringType))
        if a.valueType == StringType =>
      Some((a, MapPredicate.leaf(a.column.name, a.key, Op.STARTS_WITH, s.toString)))
    case _ => None
  }

  private object ValueLiteral {
    def unapply(e: Expression): Option[Literal] = e match {
      case l @ Literal(v, _) if v != null => Some(l)
      case _                              => None
    }
  }

  private def cmp(
      a: MapAccess,
      op: Op,
      lit: Literal,
      e: Expression
  ): Option[(MapAccess, MapPredicate)] =
    if (lit.dataType != a.valueType) None
    else value(lit.value, a.valueType).map(v => (a, MapPredicate.leaf(a.column.name, a.key, op, v)))

  private def in(a: MapAccess, items: Seq[(Any, DataType)]): Option[(MapAccess, MapPredicate)] = {
    if (items.exists { case (v, dt) => v != null && dt != a.valueType }) return None
    val values = items.collect { case (v, _) if v != null => value(v, a.valueType) }
    if (values.isEmpty || values.exists(_.isEmpty)) None
    else Some((a, MapPredicate.leaf(a.column.name, a.key, Op.IN, values.map(_.get): _*)))
  }

  /** Value types compared exactly like Spark: INT, BIGINT, DOUBLE (with NaN), binary STRING. */
  def pushable(dt: DataType): Boolean = dt match {
    case IntegerType | LongType | DoubleType | StringType => true
    case _                                                => false
  }

  /** The reader's literal for a Catalyst value of the map's value type. */
  private def value(v: Any, dt: DataType): Option[AnyRef] = (v, dt) match {
    case (i: Int, IntegerType)       => Some(java.lang.Long.valueOf(i.toLong))
    case (l: Long, LongType)         => Some(java.lang.Long.valueOf(l))
    case (d: Double, DoubleType)     => Some(java.lang.Double.valueOf(d))
    case (s: UTF8String, StringType) => Some(s.toString)
    case _                           => None
  }
}
