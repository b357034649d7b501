package dev.strata.spark.data;

/**
 * Column names handed to Spark's connector expressions ({@code Expressions.column}, {@code
 * identity}, {@code bucket}), which parse their argument as a SQL multi-part identifier: a column
 * named {@code my-id} or {@code a.b} must reach them quoted.
 */
public final class ColumnReferences {

    private ColumnReferences() {}

    /** {@code column} quoted with backticks (a backtick in it doubled). */
    public static String quoted(String column) {
        return "`" + column.replace("`", "``") + "`";
    }
}
