package dev.strata.spark.search

import scala.util.control.NonFatal

import dev.strata.index.PkFullTextIndex
import dev.strata.spark.StrataCatalog
import dev.strata.spark.errors.StrataErrors
import dev.strata.spark.table.StrataTable

import org.apache.spark.sql.catalyst.analysis.TempResolvedColumn
import org.apache.spark.sql.catalyst.expressions.{
  Alias,
  Attribute,
  Cast,
  ExprId,
  Expression,
  OuterReference
}
import org.apache.spark.sql.catalyst.plans.logical.{
  Aggregate,
  CTERelationDef,
  CTERelationRef,
  LogicalPlan,
  Project,
  WithCTE
}
import org.apache.spark.sql.catalyst.rules.Rule
import org.apache.spark.sql.execution.datasources.v2.DataSourceV2Relation
import org.apache.spark.unsafe.types.UTF8String

/** Binds each `text_match(column, query)` to the [[StrataTable]] its column is read from (through
  * renames, views, UPDATE/DELETE/MERGE targets); untraced columns are left to [[TextMatchChecks]].
  */
object ResolveTextMatch extends Rule[LogicalPlan] {

  override def apply(plan: LogicalPlan): LogicalPlan = {
    // A CTE's references reach its definition only through the statement's WithCTE.
    lazy val ctes: Map[Long, CTERelationDef] =
      plan.collect { case w: WithCTE => w.cteDefs.map(d => d.id -> d) }.flatten.toMap
    // Outer references (a subquery's filter on the statement's target, as Spark 4.2 plans a
    // MERGE's ON condition) name columns anywhere in the statement.
    lazy val everywhere = columnSources(plan +: plan.subqueriesAll, ctes)
    plan.resolveOperatorsUpWithSubqueriesAndPruning(_ => true) {
      case p if p.childrenResolved && p.expressions.exists(unbound) =>
        lazy val sources = columnSources(p.children, ctes)
        p.transformExpressions {
          case t @ TextMatch(column, query, None) if column.resolved && query.resolved =>
            bind(t, sources, everywhere)
        }
    }
  }

  private def unbound(e: Expression): Boolean = e.exists {
    case TextMatch(_, _, None) => true
    case _                     => false
  }

  /** The Strata table and column behind each attribute the plans' nodes produce. */
  private def columnSources(
      plans: Seq[LogicalPlan],
      ctes: => Map[Long, CTERelationDef]
  ): Map[ExprId, (StrataTable, String)] = {
    var out = Map.empty[ExprId, (StrataTable, String)]
    plans.foreach(_.foreachUp {
      case ref: CTERelationRef =>
        ctes.get(ref.cteId).foreach { d =>
          val inner = columnSources(Seq(d.child), ctes)
          ref.output.zip(d.output).foreach { case (a, defined) =>
            inner.get(defined.exprId).foreach(source => out += a.exprId -> source)
          }
        }
      case r @ DataSourceV2Relation(t: StrataTable, _, _, _, _, _) =>
        r.output.foreach(a => out += a.exprId -> (t, a.name))
      // UPDATE/DELETE/MERGE targets: Spark's wrapper keeps the relation's catalog and identifier
      case r @ DataSourceV2Relation(_, _, Some(catalog: StrataCatalog), Some(ident), _, _) =>
        catalog.loadTable(ident) match {
          case t: StrataTable => r.output.foreach(a => out += a.exprId -> (t, a.name))
          case _              =>
        }
      case Project(list, _)         => list.foreach(renamed(_, out).foreach(out += _))
      case Aggregate(_, list, _, _) => list.foreach(renamed(_, out).foreach(out += _))
      case _                        =>
    })
    out
  }

  private def renamed(e: Expression, known: Map[ExprId, (StrataTable, String)]) = e match {
    case a @ Alias(child: Attribute, _) => known.get(child.exprId).map(a.exprId -> _)
    // a view's output: each column cast to the type it already has
    case a @ Alias(c: Cast, _)
        if c.child.isInstanceOf[Attribute] && c.dataType == c.child.dataType =>
      known.get(c.child.asInstanceOf[Attribute].exprId).map(a.exprId -> _)
    case _ => None
  }

  private def bind(
      t: TextMatch,
      local: Map[ExprId, (StrataTable, String)],
      everywhere: => Map[ExprId, (StrataTable, String)]
  ): TextMatch = {
    val call = TextMatch.describe(t)
    val (attribute, sources) = t.left match {
      case a: Attribute                 => (a, local)
      case OuterReference(a: Attribute) => (a, everywhere)
      // HAVING's columns while the analyzer resolves them: bound once they are plain columns
      case other if other.exists(_.isInstanceOf[TempResolvedColumn]) => return t
      case other =>
        throw StrataErrors.analysis(
          s"Cannot use $call: the first argument must be a column of a full-text indexed " +
            s"Strata table, found the expression ${other.sql}. Pass the indexed column itself, e.g. " +
            s"${TextMatch.Name}(body, 'disk AND failure')."
        )
    }
    if (!t.right.foldable) {
      throw StrataErrors.analysis(
        s"Cannot use $call: the query must be a constant string, found ${TextMatch.columnText(t.right)}, " +
          "which differs per row. Pass a string literal such as 'disk AND failure'."
      )
    }
    val query = t.right.eval() match {
      case s: UTF8String => s.toString
      case null =>
        throw StrataErrors.analysis(
          s"Cannot use $call: the query is NULL. Pass a non-empty query string."
        )
      case other => other.toString
    }
    sources.get(attribute.exprId) match {
      case None => t // not traceable here: refused by TextMatchChecks unless bound further up
      case Some((table, column)) =>
        val paimon = table.paimonTable()
        val indexed =
          if (PkFullTextIndex.isEnabled(paimon)) Some(PkFullTextIndex.indexedColumn(paimon))
          else None
        if (!indexed.contains(column) && paimon.primaryKeys().isEmpty) {
          // The option is refused on a table without a primary key: do not advise it.
          throw StrataErrors.analysis(
            s"Cannot use $call: column $column of ${table.name()} is not full-text indexed, and " +
              "the index needs a primary-key table, which this table is not. Match it with RLIKE or " +
              s"LIKE, or copy the rows into a table with a PRIMARY KEY and " +
              s"'${PkFullTextIndex.COLUMNS_OPTION}' = '$column'."
          )
        }
        if (!indexed.contains(column)) {
          val instead = indexed.map(c => s", or match the indexed column '$c'").getOrElse("")
          throw StrataErrors.analysis(
            s"Cannot use $call: column $column of ${table.name()} is not full-text indexed; " +
              s"set '${PkFullTextIndex.COLUMNS_OPTION}' = '$column' with ALTER TABLE ${table.name()} SET TBLPROPERTIES " +
              s"and run CALL ${table.catalogName()}.sys.compact$instead."
          )
        }
        val matcher =
          try PkFullTextIndex.matcher(paimon, query)
          catch {
            case NonFatal(e) =>
              throw StrataErrors.analysis(
                s"Cannot use $call on ${table.name()}: ${e.getMessage}",
                e
              )
          }
        t.copy(binding = Some(TextMatchBinding(table.name(), column, query)(matcher)))
    }
  }
}

/** Refuses, after analysis, every `text_match` whose column was not traced to a Strata table. */
object TextMatchChecks extends (LogicalPlan => Unit) {

  override def apply(plan: LogicalPlan): Unit = plan.foreachWithSubqueries { p =>
    p.expressions.foreach(_.foreach {
      case t @ TextMatch(_, _, None) =>
        throw StrataErrors.analysis(
          s"Cannot use ${TextMatch.describe(t)}: ${TextMatch.columnText(t.left)} is " +
            "not a column read from a table of a Strata catalog (only full-text indexed columns of Strata tables, " +
            "directly or renamed, can be matched). Apply it to the column where the Strata table is read."
        )
      case _ =>
    })
  }
}
