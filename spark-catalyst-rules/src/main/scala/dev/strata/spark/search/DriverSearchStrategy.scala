package dev.strata.spark.search

import dev.strata.spark.local.DriverRows
import dev.strata.spark.lookup.KeyLookupStrategy
import dev.strata.spark.read.{NarrowableScan, PushedAggregate}

import scala.jdk.CollectionConverters._
import scala.jdk.OptionConverters._

import org.apache.spark.sql.catalyst.InternalRow
import org.apache.spark.sql.catalyst.expressions.{
  Alias,
  And,
  Attribute,
  BoundReference,
  CaseWhen,
  DynamicPruning,
  EqualTo,
  Expression,
  In,
  Literal,
  NamedExpression,
  Or,
  IntegerLiteral,
  InterpretedOrdering
}
import org.apache.spark.sql.catalyst.expressions.aggregate.{AggregateExpression, Count}
import org.apache.spark.sql.catalyst.plans.logical.{
  Aggregate,
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

/** Plans a driver-side `full_text_search` (a [[LocalScan]]), key lookup ([[KeyLookupStrategy]]),
  * aggregate answered while planning ([[PushedAggregate]]) or `LIMIT` over a table's scan (its
  * first rows that pass a filter, [[NarrowableScan.firstRows]]) with the deterministic `Project`,
  * `Filter`, `Sort`, `Limit` and `Offset` above it as one local relation evaluated while planning,
  * with Spark's own expressions, so that part runs no Spark job. Whatever cannot be evaluated here
  * or fails (an ANSI error) is left to Spark, which raises the error as usual. A planner strategy
  * because the search's scan only exists after V2 scan push-down, which runs after every optimizer
  * rule an extension can inject.
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

  /** Most search rows turned into a join filter (each other-side row is compared with all). */
  private val MaxJoinedRows = 100

  /** Most rows a narrowed scan reads on the driver by key instead of in a Spark job. */
  private val MaxLookedUpRows = 10000

  /** Most rows read on the driver for a filtered `LIMIT` before it is left to a Spark job: about
    * what the job's own start costs to read.
    */
  private val MaxFilteredRows = 20000L

  /** A search joined to another relation (typically its table, by key), rewritten so no Spark job
    * (a broadcast) serves the search side: an inner join becomes a filter of the other side plus a
    * projection of the matched search row's columns, a left semi join just the filter. Inner joins
    * need equalities on exact-equality columns whose values are distinct over the search rows.
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

  /** `other` with its scan of the searched table replaced by the hits' rows, when `other` only
    * prunes it and the condition equates the search's whole primary key with the same columns.
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
      val key = DriverRows.projection(keys, search.output)
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

  /** Whether `plan` only projects, filters (deterministically) and renames scans. */
  private def onlyPrunes(plan: LogicalPlan): Boolean = !plan.exists {
    case p @ (_: Project | _: Filter | _: SubqueryAlias | _: DataSourceV2ScanRelation) =>
      !p.expressions.forall(_.deterministic)
    case _ => true
  }

  /** `other` with its one scan narrowed ([[NarrowableScan]]) to the key values `filter` allows. */
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
        def values(a: Attribute): Seq[Any] =
          branches.flatMap(_.collect { case (b, v) if b.exprId == a.exprId => v }).distinct
        def javaValues(a: Attribute) = values(a).map(_.asInstanceOf[AnyRef]).asJava
        val narrowedScan = columns.foldLeft(scan.scan) {
          case (n: NarrowableScan, a) if !values(a).contains(null) =>
            n.narrowedTo(a.name, javaValues(a)).toScala.getOrElse(n)
          case (s, _) => s
        }
        // A narrowed column that leads the files' sort order is cheaper to read on the driver.
        val lookedUp = narrowedScan match {
          case n: NarrowableScan if n ne scan.scan =>
            columns.view
              .filterNot(a => values(a).contains(null))
              .flatMap(a => n.lookUp(a.name, javaValues(a), MaxLookedUpRows).toScala)
              .headOption
          case _ => None
        }
        lookedUp match {
          case Some(rows) =>
            other.transform { case t if t eq scan => HitRows(scan.output, rows.toSeq) }
          case None if narrowedScan eq scan.scan => other
          case None => other.transform { case t if t eq scan => scan.copy(scan = narrowedScan) }
        }
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

  /** The rows of a driver-side search under evaluable operators; `None` if an operator fails. */
  private def evaluate(plan: LogicalPlan): Option[Seq[InternalRow]] = plan match {
    case scan: DataSourceV2ScanRelation if isDriverSearch(scan) =>
      Some(scan.scan.asInstanceOf[LocalScan].rows().toSeq)
    // a count answered while planning: its one row (Spark would run a job for a Project over it)
    case scan: DataSourceV2ScanRelation if scan.scan.isInstanceOf[PushedAggregate] =>
      Some(scan.scan.asInstanceOf[LocalScan].rows().toSeq)
    // a filter fixing a table's key column, read by key (the sort or limit above it stays here)
    case KeyLookupStrategy.Answered(rows) => Some(rows)
    case Project(list, child) if list.forall(evaluable) =>
      evaluate(child).flatMap(DriverRows.project(_, list, child.output))
    // Dynamic partition pruning only drops rows its join drops too (Spark itself replaces it by
    // `true` when no broadcast is reused); the join evaluated here applies its condition.
    case Filter(condition, child)
        if splitConjuncts(condition).exists(_.isInstanceOf[DynamicPruning]) =>
      splitConjuncts(condition).filterNot(_.isInstanceOf[DynamicPruning]) match {
        case Nil  => evaluate(child)
        case rest => evaluate(Filter(rest.reduce(And), child))
      }
    case Filter(condition, child) if evaluable(condition) =>
      evaluate(child).flatMap(DriverRows.filter(_, condition, child.output))
    // A local sort of the single "partition" the rows form orders them all, like a global one.
    case Sort(order, _, child, _) if order.forall(o => evaluable(o.child)) =>
      evaluate(child).flatMap(rows =>
        DriverRows.attempt {
          // Each row's sort keys are computed once, so a failing key fails here and not mid-sort.
          val keys = DriverRows.projection(order.map(_.child), child.output)
          val ordering = new InterpretedOrdering(order.zipWithIndex.map { case (o, i) =>
            o.copy(child = BoundReference(i, o.child.dataType, o.child.nullable))
          })
          rows
            .map(r => (keys(r).copy(): InternalRow, r))
            .sortWith((a, b) => ordering.compare(a._1, b._1) < 0)
            .map(_._2)
        }
      )
    // count(*) / count(1) without grouping: the number of rows
    case Aggregate(grouping, aggregates, child, _)
        if grouping.isEmpty && aggregates.nonEmpty && aggregates.forall(rowCount) =>
      evaluate(child).map(rows => Seq(InternalRow.fromSeq(aggregates.map(_ => rows.size.toLong))))
    // a LIMIT over a table's pruned, filtered and projected scan: its first rows, read on the driver
    case GlobalLimit(IntegerLiteral(n), child @ LocalLimit(IntegerLiteral(m), scan)) =>
      (if (n <= m && n <= MaxLookedUpRows) firstRows(scan, n) else None)
        .orElse(evaluate(child).map(_.take(n)))
    case GlobalLimit(IntegerLiteral(n), child) => evaluate(child).map(_.take(n))
    case LocalLimit(IntegerLiteral(n), child)  => evaluate(child).map(_.take(n))
    case Offset(IntegerLiteral(n), child)      => evaluate(child).map(_.drop(n))
    case SubqueryAlias(_, child)               => evaluate(child)
    case h: HitRows                            => Some(h.rows)
    // a join back to a table (the search's rows are local; the table's only when answered by the search)
    case j: Join if j.exists(isDriverSearchNode) =>
      joinBack(j).flatMap {
        case l: LocalRelation => Some(l.data) // no search row joins
        case p                => evaluate(p)
      }
    case _ => None
  }

  /** Up to `n` rows of a table's scan under evaluable projections and filters; `None` if it does
    * more, or if a filter keeps fewer than `n` of the first [[MaxFilteredRows]] rows read (Spark's
    * job then reads as far as it takes).
    */
  private def firstRows(plan: LogicalPlan, n: Int): Option[Seq[InternalRow]] = plan match {
    case Project(list, child) if list.forall(evaluable) =>
      firstRows(child, n).flatMap(DriverRows.project(_, list, child.output))
    case SubqueryAlias(_, child) => firstRows(child, n)
    case Filter(condition, scan: DataSourceV2ScanRelation) if evaluable(condition) =>
      scanRows(scan, n, DriverRows.predicate(condition, scan.output), MaxFilteredRows)
    case scan: DataSourceV2ScanRelation => scanRows(scan, n, _ => true, Long.MaxValue)
    case _                              => None
  }

  private def scanRows(
      scan: DataSourceV2ScanRelation,
      n: Int,
      keep: InternalRow => Boolean,
      maxRead: Long
  ): Option[Seq[InternalRow]] = scan.scan match {
    case s: NarrowableScan => s.firstRows(n, r => keep(r), maxRead).toScala.map(_.toSeq)
    case _                 => None
  }

  /** `count(*)` or `count(literal)`: a count of every row. */
  private def rowCount(e: NamedExpression): Boolean = e match {
    case Alias(AggregateExpression(Count(children), _, false, None, _), _) =>
      children.forall(c => c.foldable && c.eval() != null)
    case _ => false
  }

  private def isDriverSearchNode(plan: LogicalPlan): Boolean = plan match {
    case s: DataSourceV2ScanRelation => isDriverSearch(s)
    case _                           => false
  }

  private def isDriverSearch(scan: DataSourceV2ScanRelation): Boolean =
    scan.relation.table.isInstanceOf[FullTextSearchTable] && scan.scan.isInstanceOf[LocalScan]

  private def evaluable(e: Expression): Boolean = DriverRows.evaluable(e)
}

/** Rows of a table's scan read on the driver (a search's hits, or rows looked up by key), standing
  * in for that scan.
  */
private[search] case class HitRows(output: Seq[Attribute], rows: Seq[InternalRow]) extends LeafNode
