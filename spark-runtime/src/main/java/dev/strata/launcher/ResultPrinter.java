package dev.strata.launcher;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/** Prints query results as an aligned text table, like a SQL shell. */
final class ResultPrinter {

    private final PrintStream out;

    ResultPrinter(PrintStream out) {
        this.out = out;
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
        out.println(rows.size() + (rows.size() == 1 ? " row" : " rows") + (truncated ? " (truncated)" : ""));
    }

    private static String format(Object value) {
        if (value == null) {
            return "NULL";
        }
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
        return value.toString().replace("\n", "\\n");
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
            sb.append(' ').append(values[c]).append(" ".repeat(widths[c] - values[c].length())).append(" |");
        }
        return sb.toString();
    }
}
