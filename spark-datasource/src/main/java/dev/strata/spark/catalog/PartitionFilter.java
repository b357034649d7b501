package dev.strata.spark.catalog;

import dev.strata.spark.compat.SparkVersionApi;
import dev.strata.spark.errors.StrataErrors;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.FunctionIdentifier;
import org.apache.spark.sql.catalyst.analysis.FunctionRegistry$;
import org.apache.spark.sql.catalyst.analysis.Parameter;
import org.apache.spark.sql.catalyst.analysis.SimpleFunctionRegistry;
import org.apache.spark.sql.catalyst.analysis.UnresolvedAttribute;
import org.apache.spark.sql.catalyst.analysis.UnresolvedExtractValue;
import org.apache.spark.sql.catalyst.analysis.UnresolvedFunction;
import org.apache.spark.sql.catalyst.analysis.UnresolvedStar;
import org.apache.spark.sql.catalyst.expressions.And;
import org.apache.spark.sql.catalyst.expressions.BinaryArithmetic;
import org.apache.spark.sql.catalyst.expressions.BinaryComparison;
import org.apache.spark.sql.catalyst.expressions.Cast;
import org.apache.spark.sql.catalyst.expressions.Concat;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.ExpressionInfo;
import org.apache.spark.sql.catalyst.expressions.Generator;
import org.apache.spark.sql.catalyst.expressions.ILike;
import org.apache.spark.sql.catalyst.expressions.In;
import org.apache.spark.sql.catalyst.expressions.InSubquery;
import org.apache.spark.sql.catalyst.expressions.IsNotNull;
import org.apache.spark.sql.catalyst.expressions.IsNull;
import org.apache.spark.sql.catalyst.expressions.LambdaFunction;
import org.apache.spark.sql.catalyst.expressions.Like;
import org.apache.spark.sql.catalyst.expressions.Literal;
import org.apache.spark.sql.catalyst.expressions.Not;
import org.apache.spark.sql.catalyst.expressions.Or;
import org.apache.spark.sql.catalyst.expressions.SubqueryExpression;
import org.apache.spark.sql.catalyst.expressions.UnaryMinus;
import org.apache.spark.sql.catalyst.expressions.UnaryPositive;
import org.apache.spark.sql.catalyst.expressions.Unevaluable;
import org.apache.spark.sql.catalyst.expressions.UnresolvedNamedLambdaVariable;
import org.apache.spark.sql.catalyst.expressions.WindowExpression;
import org.apache.spark.sql.catalyst.expressions.WindowFunction;
import org.apache.spark.sql.catalyst.expressions.aggregate.AggregateExpression;
import org.apache.spark.sql.catalyst.expressions.aggregate.AggregateFunction;
import org.apache.spark.sql.catalyst.parser.ParseException;
import scala.Function1;
import scala.Option;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Checks that a {@code where => '...'} argument is a partition predicate and nothing else, on the
 * unresolved expression Spark's parser makes of it, before anything is analysed or evaluated.
 *
 * <p>Allowed: unqualified partition columns, literals, comparisons, {@code IN} of constants, {@code
 * BETWEEN}, {@code IS [NOT] ...}, {@code LIKE}, {@code ILIKE}, {@code AND/OR/NOT}, {@code CAST};
 * and on constants only, arithmetic, {@code ||} and Spark built-in scalar functions. A function
 * must be an unshadowed built-in (no temporary, catalog or UDF) whose built expression is
 * deterministic and evaluable (not session context such as {@code current_user()}). Refused by
 * name: the reflection functions (they take an arbitrary Java method from their arguments), {@code
 * raise_error} and {@code assert_true} (caller-chosen messages), and the XML parsers (external
 * entities). {@code current_date()} and the like are allowed: constant within a statement.
 * Everything else is refused, naming the construct.
 */
final class PartitionFilter {

    /** Refused whatever their arguments (see the class comment). */
    private static final Set<String> REFUSED_FUNCTIONS =
            Set.of(
                    "reflect",
                    "java_method",
                    "try_reflect",
                    "raise_error",
                    "assert_true",
                    "xpath",
                    "xpath_boolean",
                    "xpath_double",
                    "xpath_float",
                    "xpath_int",
                    "xpath_long",
                    "xpath_number",
                    "xpath_short",
                    "xpath_string",
                    "from_xml",
                    "schema_of_xml");

    /** Groups of Spark's function documentation that are not scalar functions. */
    private static final Set<String> NON_SCALAR_GROUPS =
            Set.of("agg_funcs", "window_funcs", "generator_funcs", "lambda_funcs", "table_funcs");

    private final SparkSession spark;
    private final String tableName;
    private final String where;
    private final List<String> partitionColumns;
    private final boolean caseSensitive;

    private PartitionFilter(
            SparkSession spark, String tableName, String where, List<String> partitionColumns) {
        this.spark = spark;
        this.tableName = tableName;
        this.where = where;
        this.partitionColumns = partitionColumns;
        this.caseSensitive = spark.sessionState().conf().caseSensitiveAnalysis();
    }

    /** Throws an analysis error naming the first construct that is not allowed. */
    static void check(
            SparkSession spark, String tableName, String where, List<String> partitionColumns) {
        new PartitionFilter(spark, tableName, where, partitionColumns).check();
    }

    private void check() {
        Expression parsed;
        try {
            parsed = spark.sessionState().sqlParser().parseExpression(where);
        } catch (ParseException e) {
            throw StrataErrors.analysis(
                    String.format(
                            "Cannot use where => '%s' for %s: it is not a single SQL expression (%s). Write a filter over "
                                    + "partition columns %s, e.g. %s = '...'.",
                            where,
                            tableName,
                            firstLine(e.getMessage()),
                            String.join(", ", partitionColumns),
                            partitionColumns.get(0)),
                    e);
        }
        checkNode(parsed);
    }

    /** Whether {@code e} references a partition column. */
    private boolean checkNode(Expression e) {
        if (e instanceof Literal) {
            return false;
        }
        if (e instanceof UnresolvedAttribute) {
            checkColumn((UnresolvedAttribute) e);
            return true;
        }
        if (e instanceof And
                || e instanceof Or
                || e instanceof Not
                || e instanceof BinaryComparison
                || e instanceof In
                || e instanceof IsNull
                || e instanceof IsNotNull
                || e instanceof Like
                || e instanceof ILike
                || e instanceof Cast) {
            if (e instanceof In) {
                for (Expression item : CollectionConverters.asJava(((In) e).list())) {
                    if (checkNode(item)) {
                        throw refuse(
                                "the items of IN must be literals or built-in functions of literals, not columns");
                    }
                }
                return checkNode(((In) e).value());
            }
            return checkChildren(e);
        }
        if (e instanceof BinaryArithmetic
                || e instanceof UnaryMinus
                || e instanceof UnaryPositive
                || e instanceof Concat) {
            if (checkChildren(e)) {
                throw refuse(
                        String.format(
                                "the operator %s may be applied to literals only, not to columns",
                                operator(e)));
            }
            return false;
        }
        if (e instanceof UnresolvedFunction) {
            return checkFunction((UnresolvedFunction) e);
        }
        throw refuse(describe(e) + " not allowed in a partition filter");
    }

    private boolean checkChildren(Expression e) {
        boolean columns = false;
        for (Expression child : CollectionConverters.asJava(e.children())) {
            columns |= checkNode(child);
        }
        return columns;
    }

    private void checkColumn(UnresolvedAttribute attribute) {
        List<String> parts = CollectionConverters.asJava(attribute.nameParts());
        String name = String.join(".", parts);
        if (parts.size() == 1) {
            for (String column : partitionColumns) {
                if (caseSensitive
                        ? column.equals(parts.get(0))
                        : column.equalsIgnoreCase(parts.get(0))) {
                    return;
                }
            }
        }
        throw StrataErrors.analysis(
                String.format(
                        "Cannot use where => '%s' for %s: column %s is not one of the partition columns %s. A partition "
                                + "filter may use only partition columns, named without qualifier.",
                        where, tableName, name, partitionColumns));
    }

    private boolean checkFunction(UnresolvedFunction f) {
        List<String> parts = CollectionConverters.asJava(f.nameParts());
        String shown = String.join(".", parts);
        if (parts.size() != 1) {
            throw refuse(
                    String.format(
                            "function %s is a qualified name; only built-in functions, named without "
                                    + "qualifier, are allowed in a partition filter",
                            shown));
        }
        String name = parts.get(0).toLowerCase(Locale.ROOT);
        if (f.isDistinct()
                || f.filter().isDefined()
                || SparkVersionApi.ignoresNulls(f)
                || !f.orderingWithinGroup().isEmpty()) {
            throw refuse(
                    String.format(
                            "function %s uses DISTINCT, FILTER, IGNORE NULLS or WITHIN GROUP, which are "
                                    + "for aggregates; aggregates are not allowed in a partition filter",
                            shown));
        }
        if (name.equals("between") && f.arguments().size() == 3) {
            // The parser's form of x BETWEEN a AND b: a predicate, not a function of literals.
            return checkChildren(f);
        }
        if (REFUSED_FUNCTIONS.contains(name)) {
            throw refuse(
                    String.format(
                            "function %s is not allowed in a partition filter: %s",
                            shown,
                            name.contains("reflect") || name.equals("java_method")
                                    ? "it calls Java methods"
                                    : name.contains("xml") || name.startsWith("xpath")
                                            ? "it parses XML documents"
                                            : "it fails the statement"));
        }
        FunctionIdentifier id = SparkVersionApi.builtinFunctionId(name);
        SimpleFunctionRegistry builtin = FunctionRegistry$.MODULE$.builtin();
        Option<ExpressionInfo> info = builtin.lookupFunction(id);
        if (info.isEmpty()) {
            throw refuse(
                    String.format(
                            "function %s is not a built-in Spark function; temporary, catalog and "
                                    + "user-defined functions are not allowed in a partition filter",
                            shown));
        }
        // A temporary function may shadow the built-in.
        Option<ExpressionInfo> inSession =
                spark.sessionState().catalog().lookupBuiltinOrTempFunction(name);
        if (inSession.isEmpty()
                || !info.get().getClassName().equals(inSession.get().getClassName())) {
            throw refuse(
                    String.format(
                            "function %s is shadowed by a temporary function of this session; only "
                                    + "built-in functions are allowed in a partition filter",
                            shown));
        }
        String group = info.get().getGroup();
        if (group != null && NON_SCALAR_GROUPS.contains(group)) {
            throw refuse(
                    String.format(
                            "function %s is %s function; only scalar functions are allowed in a partition "
                                    + "filter",
                            shown, kind(group)));
        }
        List<Expression> arguments = CollectionConverters.asJava(f.arguments());
        for (Expression argument : arguments) {
            if (checkNode(argument)) {
                throw refuse(
                        String.format(
                                "function %s may take only literals and built-in functions of literals, "
                                        + "not columns",
                                shown));
            }
        }
        Expression built;
        try {
            Function1<scala.collection.immutable.Seq<Expression>, Expression> builder =
                    builtin.lookupFunctionBuilder(id).get();
            built = builder.apply(CollectionConverters.asScala(builtArguments(arguments)).toList());
        } catch (Exception | AssertionError e) {
            // Builders throw AnalysisException (checked for javac) for a wrong argument count.
            throw refuse(
                    String.format(
                            "function %s cannot be applied to these arguments (%s)",
                            shown, firstLine(e.getMessage())));
        }
        if (built instanceof AggregateFunction
                || built instanceof AggregateExpression
                || built instanceof WindowFunction
                || built instanceof Generator) {
            throw refuse(
                    String.format(
                            "function %s is an aggregate, window or generator function; only scalar "
                                    + "functions are allowed in a partition filter",
                            shown));
        }
        if (!built.deterministic()) {
            throw refuse(
                    String.format(
                            "function %s is not deterministic; a partition filter must select the same "
                                    + "partitions whenever it is evaluated",
                            shown));
        }
        if (built instanceof Unevaluable) {
            throw refuse(
                    String.format(
                            "function %s depends on the session, not on its arguments", shown));
        }
        return false;
    }

    /** The arguments with every checked built-in call replaced by what the registry builds. */
    private static List<Expression> builtArguments(List<Expression> arguments) {
        List<Expression> out = new ArrayList<>();
        for (Expression a : arguments) {
            out.add(build(a));
        }
        return out;
    }

    private static Expression build(Expression e) {
        if (e instanceof UnresolvedFunction) {
            UnresolvedFunction f = (UnresolvedFunction) e;
            FunctionIdentifier id =
                    SparkVersionApi.builtinFunctionId(
                            f.nameParts().head().toLowerCase(Locale.ROOT));
            List<Expression> args = builtArguments(CollectionConverters.asJava(f.arguments()));
            return FunctionRegistry$.MODULE$
                    .builtin()
                    .lookupFunctionBuilder(id)
                    .get()
                    .apply(CollectionConverters.asScala(args).toList());
        }
        List<Expression> children = builtArguments(CollectionConverters.asJava(e.children()));
        return children.isEmpty()
                ? e
                : e.withNewChildren(CollectionConverters.asScala(children).toList());
    }

    private static String kind(String group) {
        switch (group) {
            case "agg_funcs":
                return "an aggregate";
            case "window_funcs":
                return "a window";
            case "generator_funcs":
                return "a generator";
            case "lambda_funcs":
                return "a higher-order (lambda)";
            default:
                return "a table";
        }
    }

    private static String describe(Expression e) {
        if (e instanceof SubqueryExpression || e instanceof InSubquery) {
            return "subqueries are";
        }
        if (e instanceof UnresolvedStar) {
            return "* is";
        }
        if (e instanceof LambdaFunction || e instanceof UnresolvedNamedLambdaVariable) {
            return "lambda functions are";
        }
        if (e instanceof Parameter) {
            return "parameter markers are";
        }
        if (e instanceof UnresolvedExtractValue) {
            return "field, element and key accesses are";
        }
        if (e instanceof AggregateExpression) {
            return "aggregates are";
        }
        if (e instanceof WindowExpression || e.nodeName().contains("Window")) {
            return "window functions are";
        }
        String name = e.prettyName().toLowerCase(Locale.ROOT);
        if (name.equals("casewhen")) {
            return "CASE expressions are";
        }
        if (name.contains("likeany") || name.contains("likeall")) {
            return "LIKE ANY and LIKE ALL are";
        }
        return name.toUpperCase(Locale.ROOT) + " expressions are";
    }

    private static String operator(Expression e) {
        if (e instanceof BinaryArithmetic) {
            return ((BinaryArithmetic) e).symbol();
        }
        if (e instanceof UnaryMinus) {
            return "-";
        }
        if (e instanceof UnaryPositive) {
            return "+";
        }
        return "||";
    }

    private RuntimeException refuse(String why) {
        return StrataErrors.analysis(
                String.format(
                        "Cannot use where => '%s' for %s: %s. Use partition columns %s, literals, comparisons, IN, BETWEEN, "
                                + "IS [NOT] NULL, LIKE, AND/OR/NOT and built-in functions of literals.",
                        where, tableName, why, String.join(", ", partitionColumns)));
    }

    /** Spark's parse errors start with a line break. */
    static String firstLine(String message) {
        if (message == null) {
            return "no message";
        }
        for (String line : message.split("\n")) {
            if (!line.isBlank()) {
                return line.trim();
            }
        }
        return "no message";
    }
}
