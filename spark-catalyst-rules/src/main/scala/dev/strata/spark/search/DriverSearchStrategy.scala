package dev.strata.spark.search

import dev.strata.spark.read.NarrowableScan

import scala.jdk.CollectionConverters._
import scala.jdk.OptionConverters._
import scala.util.control.NonFatal

import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.catalyst.expressions.{
  Alias,
  And,
  Attribute,
  AttributeReference,
  BoundReference,
  CaseWhen,
  EqualTo,
  Expression,
  In,
  Literal,
  Or,
  IntegerLiteral,
  InterpretedOrdering,
  Predicate,
  SubqueryExpression,
  UnsafeProjection,
  Unevaluable
}
import org.apache.spark.sql.catalyst.plans.logical.{
  Filter,
  GlobalLimit,
  Join,
  LeafNode,
  LocalLimit,
  LocalRelation,
  LogicalPlan,
  Offset,
  Project,
  ReturnAnswer,
  Sort,
  SubqueryAlias
}
import org.apache.spark.sql.catalyst.plans.{Inner, LeftSemi}
import org.apache.spark.sql.connector.read.LocalScan
import org.apache.spark.sql.execution.{LocalTableScanExec, SparkPlan, SparkStrategy}
import org.apache.spark.sql.execution.datasources.v2.DataSourceV2ScanRelation
import org.apache.spark.sql.types._

/** Plans a `full_text_search` answered on the driver (its scan is a [[LocalScan]]), together with
  * the deterministic `Project`, `Filter`, `Sort`, `Limit` and `Offset` above it, as one local
  * relation evaluated while planning: whatever form the statement takes (`SELECT id`, `ORDER BY`
  * any column, `WHERE` on the result, a CTE), collecting the search part runs no Spark job. At most
  * k rows (plus ties at the k-th score) reach these operators, so evaluating them on the driver
  * costs microseconds, where Spark would plan a `Sort` as a range-partitioning shuffle and a
  * `Filter` or `TakeOrderedAndProject` as a job over the local rows.
  *
  * The operators are evaluated with Spark's own expression evaluation (projections, predicates,
  * `InterpretedOrdering` with each order's direction, NULL ordering and collation), so the answer
  * is Spark's. Expressions that are nondeterministic, hold a subquery or cannot be evaluated
  * outside Spark's execution are left to Spark, and so is an operator whose evaluation fails (an
  * ANSI error): Spark then plans it as usual and raises the error when it runs, as it would without
  * Strata. Above anything else (a join, an aggregate) the search itself is still one local
  * relation.
  *
  * Why a planner strategy and not an optimizer rule: the search's scan only exists after V2 scan
  * push-down, which runs after every rule an extension can inject into the optimizer. Searches run
  * as executor tasks are left to Spark.
  */
object DriverSearchStrategy extends SparkStrategy {

  override def apply(plan: LogicalPlan): Seq[SparkPlan] = {
    val target = plan match {
      case ReturnAnswer(child) => child
      case other               => other
    }
    target match {
      case h: HitRows => LocalTableScanExec(h.output, h.rows, None) :: Nil
      case _ =>
        evaluate(target) match {
          case Some(rows) => LocalTableScanExec(target.output, rows, None) :: Nil
          case None       => joinBack(target).map(planLater).toList
        }
    }
  }

  /** At most this many search rows are turned into a filter on the other side of a join; more go to
    * Spark's join (the filter compares each row of the other side with every search row).
    */
  private val MaxJoinedRows = 100

  /** A search joined to another relation (typically its own table, by key), rewritten so that no
    * Spark job serves the search side: an inner join becomes a filter of the other side keeping the
    * rows the join condition matches with some search row, and a projection putting that row's
    * columns next to them; a left semi join (`WHERE t.id IN (SELECT id FROM
    * full_text_search(...))`) just the filter. Spark would broadcast the search's local rows, a job
    * of its own. When the join equates the search's whole primary key with the same columns of the
    * searched table, the table's rows come from the hits themselves ([[answeredBySearch]]) and the
    * whole statement is evaluated here; otherwise the filter is evaluated above the other side's
    * scan, not pushed into it (that scan was built by V2 push-down before the search's rows
    * existed), so the table is read as Spark's join reads it.
    *
    * The inner join is rewritten only when the condition holds equalities between search and other
    * columns (of types whose SQL equality is value equality) whose values are distinct over the
    * search rows: then each row of the other side matches at most one search row, and the
    * projection can name it. Otherwise (or over [[MaxJoinedRows]] rows) Spark plans the join, with
    * the search still one local relation.
    */
  private def joinBack(plan: LogicalPlan): Option[LogicalPlan] = plan match {
    case Join(left, right, Inner, Some(condition), _) if evaluable(condition) =>
      innerJoin(plan.output, left, right, condition)
        .orElse(innerJoin(plan.output, right, left, condition))
    case Join(left, right, LeftSemi, Some(condition), _) if evaluable(condition) =>
      evaluate(right)
        .filter(_.size <= MaxJoinedRows)
        .map(rows =>
          matching(condition, right.output, rows, answeredBySearch(right, left, condition))
        )
    case _ => None
  }

  /** `other` with its scan of the searched table replaced by the rows the search's hits have in it,
    * when that changes no answer: `other` only projects and filters that one scan, the join
    * condition equates every primary-key column of the search with the same column of the scan (so
    * only rows with a hit's key can match), and the search can tell those rows
    * ([[DriverSearch.hitRowsIn]]: a plain scan of the same snapshot, every row archived). Then a
    * join back to the table by key reads no table file and runs no job. Otherwise `other` as is.
    */
  private def answeredBySearch(
      search: LogicalPlan,
      other: LogicalPlan,
      condition: Expression
  ): LogicalPlan = {
    val searchScan = search.collectFirst {
      case s: DataSourceV2ScanRelation if isDriverSearch(s) && s.scan.isInstanceOf[DriverSearch] =>
        s
    }
    val tableScans = other.collect { case s: DataSourceV2ScanRelation => s }
    (searchScan, tableScans) match {
      case (Some(s), Seq(table)) if onlyPrunes(other) =>
        def column(a: Expression, of: LogicalPlan): Option[String] = a match {
          case a: Attribute if of.output.exists(_.exprId == a.exprId) => Some(a.name)
          case _                                                      => None
        }
        val joinedColumns = splitConjuncts(condition).flatMap {
          case EqualTo(a, b) =>
            (column(a, s), column(b, table)) match {
              case (Some(x), Some(y)) if x == y => Some(x)
              case _ =>
                (column(b, s), column(a, table)) match {
                  case (Some(x), Some(y)) if x == y => Some(x)
                  case _                            => None
                }
            }
          case _ => None
        }.toSet
        val search = s.scan.asInstanceOf[DriverSearch]
        if (
          search.primaryKeys.isEmpty || !search.primaryKeys.asScala.forall(joinedColumns.contains)
        ) other
        else
          search.hitRowsIn(table.scan).toScala match {
            case Some(rows) =>
              other.transform { case t if t eq table => HitRows(table.output, rows.toSeq) }
            case None => other
          }
      case _ => other
    }
  }

  private def innerJoin(
      output: Seq[Attribute],
      search: LogicalPlan,
      otherSide: LogicalPlan,
      condition: Expression
  ): Option[LogicalPlan] = {
    val keys = splitConjuncts(condition).collect {
      case EqualTo(a, b)
          if onlyOf(a, search) && onlyOf(b, otherSide) && exactEquality(a.dataType) =>
        a
      case EqualTo(a, b)
          if onlyOf(b, search) && onlyOf(a, otherSide) && exactEquality(b.dataType) =>
        b
    }
    if (keys.isEmpty) return None
    val other = answeredBySearch(search, otherSide, condition)
    evaluate(search).filter(_.size <= MaxJoinedRows).flatMap { rows =>
      val key = UnsafeProjection.create(keys, search.output)
      val keyed = rows.filter { r =>
        val k = key(r); !(0 until keys.size).exists(k.isNullAt)
      }
      val distinct = keyed.map(r => key(r).copy()).distinct.size == keyed.size
      if (!distinct) None
      else if (keyed.isEmpty) Some(LocalRelation(output, Nil))
      else {
        val matches = keyed.map(r => bind(condition, search.output, r))
        val columns = output.map { a =>
          val i = search.output.indexWhere(_.exprId == a.exprId)
          if (i < 0) a
          else {
            // rows left by the filter match exactly one search row: the last needs no test
            val values = keyed.map(r => Literal(r.get(i, a.dataType), a.dataType))
            val value =
              if (values.size == 1) values.head
              else CaseWhen(matches.init.zip(values.init), values.last)
            Alias(value, a.name)(exprId = a.exprId)
          }
        }
        val filter = anyOf(matches)
        Some(Project(columns, Filter(filter, narrowed(filter, other))))
      }
    }
  }

  /** The rows of `other` that `condition` matches with one of `rows` (the search side's). */
  private def matching(
      condition: Expression,
      output: Seq[Attribute],
      rows: Seq[InternalRow],
      other: LogicalPlan
  ): LogicalPlan =
    if (rows.isEmpty) LocalRelation(other.output, Nil)
    else {
      val filter = anyOf(rows.map(r => bind(condition, output, r)))
      Filter(filter, narrowed(filter, other))
    }

  /** Whether `plan` only projects, filters (deterministically) and renames one or more scans, so
    * that a column of its output holds the scan's value of that column.
    */
  private def onlyPrunes(plan: LogicalPlan): Boolean = !plan.exists {
    case p @ (_: Project | _: Filter | _: SubqueryAlias | _: DataSourceV2ScanRelation) =>
      !p.expressions.forall(_.deterministic)
    case _ => true
  }

  /** `other` with its one scan narrowed ([[NarrowableScan]]) to the values `filter` (the join's
    * filter above `other`) allows each column of that scan, so that the table side reads only the
    * buckets, files and row groups that can hold the search rows' keys: `c IN (v1, ...)`, or a
    * disjunction where every branch equates `c` with a value (a join on several columns). Rows are
    * still filtered by `filter`; only the reading is cut.
    */
  private def narrowed(filter: Expression, other: LogicalPlan): LogicalPlan = {
    def disjuncts(e: Expression): Seq[Expression] = e match {
      case Or(a, b) => disjuncts(a) ++ disjuncts(b)
      case other    => Seq(other)
    }
    def equalities(e: Expression): Seq[(Attribute, Any)] = e match {
      case In(a: Attribute, values) if values.forall(_.isInstanceOf[Literal]) =>
        values.map(v => (a, v.asInstanceOf[Literal].value))
      case EqualTo(a: Attribute, v: Literal) => Seq((a, v.value))
      case EqualTo(v: Literal, a: Attribute) => Seq((a, v.value))
      case _                                 => Nil
    }
    other.collect { case s: DataSourceV2ScanRelation => s } match {
      case Seq(scan) if onlyPrunes(other) =>
        val branches = disjuncts(filter).map(d => splitConjuncts(d).flatMap(equalities))
        val columns = scan.output.filter(a =>
          exactEquality(a.dataType) && branches.forall(_.exists(_._1.exprId == a.exprId))
        )
        val narrowedScan = columns.foldLeft(scan.scan) {
          case (n: NarrowableScan, a) =>
            val values = branches.flatMap(_.collect { case (b, v) if b.exprId == a.exprId => v })
            if (values.contains(null)) n
            else
              n.narrowedTo(a.name, values.distinct.map(_.asInstanceOf[AnyRef]).asJava)
                .toScala
                .getOrElse(n)
          case (s, _) => s
        }
        if (narrowedScan eq scan.scan) other
        else other.transform { case t if t eq scan => scan.copy(scan = narrowedScan) }
      case _ => other
    }
  }

  /** Any of `conditions`; `e IN (v1, v2, ...)` when each is `e = v` for one `e` (a single key). */
  private def anyOf(conditions: Seq[Expression]): Expression = {
    val equalities = conditions.collect {
      case EqualTo(e, v: Literal) if v.value != null => (e, v)
      case EqualTo(v: Literal, e) if v.value != null => (e, v)
    }
    if (equalities.size == conditions.size && equalities.map(_._1.canonicalized).distinct.size == 1)
      In(equalities.head._1, equalities.map(_._2).distinct)
    else conditions.reduce(Or)
  }

  /** `condition` with the search's columns replaced by one search row's values. */
  private def bind(condition: Expression, output: Seq[Attribute], row: InternalRow): Expression =
    condition.transform {
      case a: Attribute if output.exists(_.exprId == a.exprId) =>
        val i = output.indexWhere(_.exprId == a.exprId)
        Literal(row.get(i, a.dataType), a.dataType)
    }

  private def splitConjuncts(e: Expression): Seq[Expression] = e match {
    case And(a, b) => splitConjuncts(a) ++ splitConjuncts(b)
    case other     => Seq(other)
  }

  private def onlyOf(e: Expression, plan: LogicalPlan): Boolean =
    e.references.nonEmpty && e.references.subsetOf(plan.outputSet)

  /** Types whose SQL equality is equality of their values (no NaN or -0.0, no collation). */
  private def exactEquality(t: DataType): Boolean = t match {
    case BooleanType | ByteType | ShortType | IntegerType | LongType | DateType | TimestampType |
        TimestampNTZType =>
      true
    case _: DecimalType => true
    case s: StringType  => s == StringType
    case _              => false
  }

  /** The rows of `plan` when it is a driver-side search under operators the driver evaluates. The
    * search's own failure propagates (the statement fails as the scan would); an operator's failure
    * gives `None`, leaving the plan to Spark.
    */
  private def evaluate(plan: LogicalPlan): Option[Seq[InternalRow]] = plan match {
    case scan: DataSourceV2ScanRelation if isDriverSearch(scan) =>
      Some(scan.scan.asInstanceOf[LocalScan].rows().toSeq)
    case Project(list, child) if list.forall(evaluable) =>
      evaluate(child).flatMap(rows =>
        attempt {
          val project = UnsafeProjection.create(list, child.output)
          rows.map(r => project(r).copy())
        }
      )
    case Filter(condition, child) if evaluable(condition) =>
      evaluate(child).flatMap(rows =>
        attempt {
          val predicate = Predicate.create(condition, child.output)
          predicate.initialize(0)
          rows.filter(predicate.eval)
        }
      )
    // A local sort of the single "partition" the rows form orders them all, like a global one.
    case Sort(order, _, child, _) if order.forall(o => evaluable(o.child)) =>
      evaluate(child).flatMap(rows =>
        attempt {
          // Each row's sort keys are computed once, so a failing key fails here and not mid-sort.
          val keys = UnsafeProjection.create(order.map(_.child), child.output)
          val ordering = new InterpretedOrdering(order.zipWithIndex.map { case (o, i) =>
            o.copy(child = BoundReference(i, o.child.dataType, o.child.nullable))
          })
          rows
            .map(r => (keys(r).copy(): InternalRow, r))
            .sortWith((a, b) => ordering.compare(a._1, b._1) < 0)
            .map(_._2)
        }
      )
    case GlobalLimit(IntegerLiteral(n), child) => evaluate(child).map(_.take(n))
    case LocalLimit(IntegerLiteral(n), child)  => evaluate(child).map(_.take(n))
    case Offset(IntegerLiteral(n), child)      => evaluate(child).map(_.drop(n))
    case SubqueryAlias(_, child)               => evaluate(child)
    case h: HitRows                            => Some(h.rows)
    // a join back to a table (the search's rows are local; the table's only when answered by the search)
    case j: Join if j.exists(isDriverSearchNode) => joinBack(j).flatMap(evaluate)
    case _                                       => None
  }

  private def isDriverSearchNode(plan: LogicalPlan): Boolean = plan match {
    case s: DataSourceV2ScanRelation => isDriverSearch(s)
    case _                           => false
  }

  private def attempt(rows: => Seq[InternalRow]): Option[Seq[InternalRow]] =
    try Some(rows)
    catch { case NonFatal(_) => None }

  private def isDriverSearch(scan: DataSourceV2ScanRelation): Boolean =
    scan.relation.table.isInstanceOf[FullTextSearchTable] && scan.scan.isInstanceOf[LocalScan]

  private def evaluable(e: Expression): Boolean =
    e.deterministic && !e.exists {
      case _: SubqueryExpression                                 => true
      case u: Unevaluable if !u.isInstanceOf[AttributeReference] => true
      case _                                                     => false
    }
}

/** The rows a driver-side search's hits have in a scan of its table (see
  * `DriverSearchStrategy.answeredBySearch`), standing in for that scan.
  */
private[search] case class HitRows(output: Seq[Attribute], rows: Seq[InternalRow]) extends LeafNode
