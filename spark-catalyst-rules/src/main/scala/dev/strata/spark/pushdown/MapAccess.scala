package dev.strata.spark.pushdown

import org.apache.spark.sql.catalyst.expressions.{
  AttributeReference,
  ElementAt,
  Expression,
  GetMapValue,
  Literal,
  OuterReference
}
import org.apache.spark.sql.types.{DataType, MapType, StringType}
import org.apache.spark.unsafe.types.UTF8String

/** A constant-key lookup `m['k']` or `element_at(m, 'k')` on a `MAP<STRING, V>` column with binary
  * string keys; both return NULL for a missing key, the first match otherwise, ANSI or not.
  */
private[pushdown] final case class MapAccess(
    column: AttributeReference,
    key: String,
    valueType: DataType
)

private[pushdown] object MapAccess {

  def unapply(e: Expression): Option[MapAccess] = e match {
    case GetMapValue(MapColumn(a, vt), Literal(k: UTF8String, StringType)) =>
      Some(MapAccess(a, k.toString, vt))
    case ElementAt(MapColumn(a, vt), Literal(k: UTF8String, StringType), _, _) =>
      Some(MapAccess(a, k.toString, vt))
    case _ => None
  }

  /** A map column reference, directly or as an outer reference, with its value type. */
  object MapColumn {
    def unapply(e: Expression): Option[(AttributeReference, DataType)] = e match {
      case a: AttributeReference                 => mapType(a)
      case OuterReference(a: AttributeReference) => mapType(a)
      case _                                     => None
    }

    private def mapType(a: AttributeReference): Option[(AttributeReference, DataType)] =
      a.dataType match {
        // `StringType` (the object) is the binary collation; collated keys compare differently.
        case MapType(StringType, vt, _) => Some((a, vt))
        case _                          => None
      }
  }

  object Column {
    def unapply(e: Expression): Option[AttributeReference] = e match {
      case a: AttributeReference                 => Some(a)
      case OuterReference(a: AttributeReference) => Some(a)
      case _                                     => None
    }
  }
}
