package dev.strata.spark.search

import java.util.Locale

import scala.jdk.CollectionConverters._

import dev.strata.spark.StrataCatalog
import dev.strata.spark.errors.StrataErrors
import dev.strata.spark.catalog.StrataTableNames
import dev.strata.spark.compat.SparkVersionApi
import org.apache.spark.sql.{SparkSession, SparkSessionExtensions}
import org.apache.spark.sql.catalyst.FunctionIdentifier
import org.apache.spark.sql.catalyst.analysis.NoSuchTableException
import org.apache.spark.sql.catalyst.expressions.{
  Ascending,
  Descending,
  Expression,
  ExpressionInfo,
  Literal,
  NamedArgumentExpression,
  SortOrder
}
import org.apache.spark.sql.catalyst.plans.logical.{Limit, LogicalPlan, Sort}
import org.apache.spark.sql.connector.catalog.TableCatalog
import org.apache.spark.sql.execution.datasources.v2.DataSourceV2Relation
import org.apache.spark.sql.types.{IntegerType, LongType, ShortType, ByteType, StringType}
import org.apache.spark.sql.util.CaseInsensitiveStringMap
import org.apache.spark.unsafe.types.UTF8String

/** `full_text_search(table, column, query, k [, where])`: the top-k live rows of a primary-key
  * table's full-text archives plus `_score DOUBLE`, best first, as `Limit(k, Sort(_score DESC, key
  * ASC, scan))` over per-bucket top-k tasks; `where` is a partition predicate pruning buckets.
  */
object FullTextSearchFunction {

  val Name = "full_text_search"

  private val Usage =
    s"$Name(table, column, query, k [, where]) (or named: table => ..., k => ...) - top-k rows of a Strata primary-key table matching a Lucene " +
      "query on its full-text indexed column, with their BM25 `_score`; `where` filters partitions."

  def register(extensions: SparkSessionExtensions): Unit = {
    extensions.injectTableFunction(
      (
        FunctionIdentifier(Name),
        new ExpressionInfo(getClass.getName, null, Name, Usage, ""),
        build _
      )
    )
    extensions.injectPlannerStrategy(_ => DriverSearchStrategy)
  }

  /** The parameters in call order; `where` alone is optional. */
  private val Parameters = Seq("table", "column", "query", "k", "where")

  def build(given: Seq[Expression]): LogicalPlan = {
    val args = positional(given)
    if (args.size < 4 || args.size > 5) {
      throw StrataErrors.analysis(
        s"Cannot call $Name with ${args.size} arguments: expected (table, column, query, k [, where]), e.g. " +
          s"$Name('lake.kb.docs', 'body', 'disk AND \"write failure\"', 10)."
      )
    }
    val tableName = string(args(0), "table")
    val column = string(args(1), "column")
    val query = string(args(2), "query")
    val k = int(args(3), "k")
    val where = if (args.size == 5) Option(stringOrNull(args(4), "where")) else None

    val spark = SparkSession.active
    val parts = spark.sessionState.sqlParser.parseMultipartIdentifier(tableName)
    val named =
      StrataTableNames.fromArgument(
        spark,
        parts.asJava,
        SparkVersionApi.currentCatalog(spark).name()
      )
    if (named == null) {
      throw StrataErrors.analysis(
        s"Cannot search '$tableName': expected a table name of the form catalog.db.table, db.table, or a " +
          "table of the current database (USE catalog.db)."
      )
    }
    val catalog = SparkVersionApi.catalog(spark, named.catalog())
    val ident = named.ident()
    val strata = catalog match {
      case s: StrataCatalog => s
      case other =>
        throw StrataErrors.analysis(
          s"Cannot search '$tableName': catalog ${other.name()} is not a Strata catalog; $Name searches tables of " +
            s"catalogs configured with ${classOf[StrataCatalog].getName}."
        )
    }
    val qualified = StrataTableNames.qualified(strata.name(), ident)
    // the name becomes a path inside the warehouse: refuse '..', '/' and the like before any file is read
    StrataTableNames.toPaimon(strata.name(), ident, "search")
    val paimon =
      try strata.loadPaimonTable(ident)
      catch {
        case _: NoSuchTableException =>
          throw StrataErrors.analysis(s"Cannot search $qualified: the table does not exist.")
      }
    val table = FullTextSearchTable.create(qualified, paimon, column, query, k, where.orNull)
    val relation = DataSourceV2Relation.create(
      table,
      Some(strata.asInstanceOf[TableCatalog]),
      Some(ident),
      CaseInsensitiveStringMap.empty()
    )
    def attribute(name: String) = relation.output.find(_.name == name).get
    val order = SortOrder(attribute(FullTextSearchTable.SCORE), Descending) +:
      paimon.primaryKeys().asScala.toSeq.map(pk => SortOrder(attribute(pk), Ascending))
    Limit(Literal(k), Sort(order, global = true, relation))
  }

  /** The arguments in parameter order, named ones (`k => 10`) put where their name says. */
  private def positional(args: Seq[Expression]): Seq[Expression] = {
    val firstNamed = args.indexWhere(_.isInstanceOf[NamedArgumentExpression])
    if (firstNamed < 0) {
      return args
    }
    val (plain, named) = args.splitAt(firstNamed)
    val byName = named.map {
      case NamedArgumentExpression(key, value) => key.toLowerCase(Locale.ROOT) -> value
      case other =>
        throw StrataErrors.analysis(
          s"Cannot call $Name: the positional argument ${other.sql} follows a named one. Put " +
            "positional arguments first."
        )
    }
    byName.groupBy(_._1).collectFirst { case (key, uses) if uses.size > 1 => key }.foreach { key =>
      throw StrataErrors.analysis(s"Cannot call $Name: argument $key is given twice.")
    }
    byName.map(_._1).foreach { key =>
      val at = Parameters.indexOf(key)
      if (at < 0) {
        throw StrataErrors.analysis(
          s"Cannot call $Name: it has no argument named $key. Its arguments are " +
            s"${Parameters.mkString(", ")}."
        )
      }
      if (at < plain.size) {
        throw StrataErrors.analysis(
          s"Cannot call $Name: argument $key is given by position and by name."
        )
      }
    }
    val values = byName.toMap
    val ordered =
      Parameters.indices.map(i => if (i < plain.size) Some(plain(i)) else values.get(Parameters(i)))
    Parameters.take(4).zip(ordered).collectFirst { case (name, None) => name }.foreach { name =>
      throw StrataErrors.analysis(s"Cannot call $Name: argument $name is missing.")
    }
    ordered.flatten
  }

  private def constant(e: Expression, name: String): Any = {
    if (!e.foldable) {
      throw StrataErrors.analysis(
        s"Cannot call $Name: argument $name must be a constant, found ${e.sql}."
      )
    }
    e.eval()
  }

  private def stringOrNull(e: Expression, name: String): String = {
    if (e.dataType != StringType && e.dataType.typeName != "void") {
      throw StrataErrors.analysis(
        s"Cannot call $Name: argument $name must be a STRING, found ${e.dataType.simpleString}."
      )
    }
    constant(e, name) match {
      case null          => null
      case s: UTF8String => s.toString
      case other         => other.toString
    }
  }

  private def string(e: Expression, name: String): String = {
    val value = stringOrNull(e, name)
    if (value == null) {
      throw StrataErrors.analysis(s"Cannot call $Name: argument $name must not be NULL.")
    }
    value
  }

  private def int(e: Expression, name: String): Int = {
    e.dataType match {
      case IntegerType | LongType | ShortType | ByteType =>
        constant(e, name) match {
          case n: java.lang.Number if n.longValue() > 0 && n.longValue() <= Int.MaxValue =>
            n.intValue()
          case other =>
            throw StrataErrors.analysis(
              s"Cannot call $Name: argument $name must be a positive integer, 1 to ${Int.MaxValue}, found $other. " +
                s"Pass how many rows to return, e.g. 10."
            )
        }
      case other =>
        throw StrataErrors.analysis(
          s"Cannot call $Name: argument $name must be an integer, found ${other.simpleString}."
        )
    }
  }
}
