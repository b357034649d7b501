package dev.strata.launcher;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/** Prints query results as an aligned text table, like a SQL shell. */
final class ResultPrinter {

    private final PrintStream out;

    ResultPrinter(PrintStream out) {
        this.out = out;
    }

    /**
     * Prints rows in the given format, except that a result of one string column and one row
     * holding a line break (EXPLAIN, SHOW CREATE TABLE) prints as that text in every format.
     */
    void print(StructType schema, List<Row> rows, boolean truncated, StrataSql.Output output) {
        if (schema.fields().length == 1
                && schema.fields()[0].dataType() instanceof StringType
                && rows.size() == 1
                && rows.get(0).getString(0) != null
                && rows.get(0).getString(0).contains("\n")) {
            String text = rows.get(0).getString(0);
            out.print(text.endsWith("\n") ? text : text + "\n");
            return;
        }
        switch (output) {
            case CSV:
                printCsv(schema, rows);
                break;
            case JSON:
                for (Row row : rows) {
                    out.println(row.json());
                }
                break;
            default:
                print(schema, rows, truncated);
        }
    }

    private void printCsv(StructType schema, List<Row> rows) {
        List<String> header = new ArrayList<>();
        for (StructField field : schema.fields()) {
            header.add(csv(field.name()));
        }
        out.println(String.join(",", header));
        for (Row row : rows) {
            List<String> line = new ArrayList<>();
            for (int c = 0; c < schema.fields().length; c++) {
                line.add(row.isNullAt(c) ? "" : csv(text(row.get(c))));
            }
            out.println(String.join(",", line));
        }
    }

    /** RFC 4180: a field with a comma, quote or line break is quoted, quotes doubled. */
    private static String csv(String value) {
        if (value.indexOf(',') < 0
                && value.indexOf('"') < 0
                && value.indexOf('\n') < 0
                && value.indexOf('\r') < 0) {
            return value;
        }
        return '"' + value.replace("\"", "\"\"") + '"';
    }

    void print(StructType schema, List<Row> rows, boolean truncated) {
        int columns = schema.fields().length;
        List<String[]> cells = new ArrayList<>();
        String[] header = new String[columns];
        int[] widths = new int[columns];
        for (int c = 0; c < columns; c++) {
            StructField field = schema.fields()[c];
            header[c] = field.name();
            widths[c] = header[c].length();
        }
        for (Row row : rows) {
            String[] line = new String[columns];
            for (int c = 0; c < columns; c++) {
                line[c] = format(row.get(c));
                widths[c] = Math.max(widths[c], line[c].length());
            }
            cells.add(line);
        }
        String border = border(widths);
        out.println(border);
        out.println(line(header, widths));
        out.println(border);
        for (String[] line : cells) {
            out.println(line(line, widths));
        }
        out.println(border);
        out.println(
                rows.size()
                        + (rows.size() == 1 ? " row" : " rows")
                        + (truncated ? " (truncated)" : ""));
    }

    private static String format(Object value) {
        return value == null ? "NULL" : text(value).replace("\n", "\\n");
    }

    private static String text(Object value) {
        if (value instanceof byte[]) {
            StringBuilder sb = new StringBuilder("X'");
            for (byte b : (byte[]) value) {
                sb.append(String.format("%02X", b));
            }
            return sb.append('\'').toString();
        }
        if (value instanceof scala.collection.Seq) {
            return ((scala.collection.Seq<?>) value).mkString("[", ", ", "]");
        }
        if (value instanceof scala.collection.Map) {
            return ((scala.collection.Map<?, ?>) value).mkString("{", ", ", "}");
        }
        return value.toString();
    }

    private static String border(int[] widths) {
        StringBuilder sb = new StringBuilder("+");
        for (int w : widths) {
            sb.append("-".repeat(w + 2)).append('+');
        }
        return sb.toString();
    }

    private static String line(String[] values, int[] widths) {
        StringBuilder sb = new StringBuilder("|");
        for (int c = 0; c < values.length; c++) {
            sb.append(' ')
                    .append(values[c])
                    .append(" ".repeat(widths[c] - values[c].length()))
                    .append(" |");
        }
        return sb.toString();
    }
}
