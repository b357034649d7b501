package dev.strata.launcher;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.PrintStream;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.execution.HiveResult;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * Prints query results as an aligned table, CSV or JSON lines, values as spark-sql writes them
 * except binary, written {@code X'0A0B'} as a SQL literal.
 */
final class ResultPrinter {

    private final PrintStream out;
    private final HiveResult.TimeFormatters timeFormatters = HiveResult.getTimeFormatters();
    private final scala.Function1<byte[], String> binaryFormatter = ResultPrinter::hex;

    ResultPrinter(PrintStream out) {
        this.out = out;
    }

    /**
     * Prints rows in the given format; in table output a one-row, one-string command result with a
     * line break (EXPLAIN, SHOW CREATE TABLE) prints as that text.
     */
    void print(
            StructType schema,
            List<Row> rows,
            boolean truncated,
            StrataSql.Output output,
            boolean command) {
        if (output == StrataSql.Output.TABLE
                && command
                && schema.fields().length == 1
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
                printJson(schema, rows);
                break;
            default:
                print(schema, rows, truncated);
        }
    }

    /**
     * One JSON object per row: numbers, booleans and arrays as JSON, structs and string-keyed maps
     * as objects (other maps as arrays of {"key", "value"}), binary as base64, else spark-sql text.
     */
    private void printJson(StructType schema, List<Row> rows) {
        JsonFactory factory = new JsonFactory();
        for (Row row : rows) {
            StringWriter line = new StringWriter();
            try (JsonGenerator json = factory.createGenerator(line)) {
                writeJson(json, row, schema);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            out.println(line);
        }
    }

    private void writeJson(JsonGenerator json, Object value, DataType type) throws IOException {
        if (value == null) {
            json.writeNull();
        } else if (type instanceof StructType) {
            StructType struct = (StructType) type;
            Row row = (Row) value;
            json.writeStartObject();
            for (int c = 0; c < struct.fields().length; c++) {
                json.writeFieldName(struct.fields()[c].name());
                writeJson(json, row.get(c), struct.fields()[c].dataType());
            }
            json.writeEndObject();
        } else if (type instanceof ArrayType) {
            json.writeStartArray();
            scala.collection.Iterator<?> it = ((scala.collection.Iterable<?>) value).iterator();
            while (it.hasNext()) {
                writeJson(json, it.next(), ((ArrayType) type).elementType());
            }
            json.writeEndArray();
        } else if (type instanceof MapType) {
            MapType map = (MapType) type;
            scala.collection.Iterator<? extends scala.Tuple2<?, ?>> it =
                    ((scala.collection.Map<?, ?>) value).iterator();
            boolean stringKeys = map.keyType() instanceof StringType;
            if (stringKeys) {
                json.writeStartObject();
            } else {
                json.writeStartArray();
            }
            while (it.hasNext()) {
                scala.Tuple2<?, ?> entry = it.next();
                if (stringKeys) {
                    json.writeFieldName(String.valueOf(entry._1()));
                } else {
                    json.writeStartObject();
                    json.writeFieldName("key");
                    writeJson(json, entry._1(), map.keyType());
                    json.writeFieldName("value");
                }
                writeJson(json, entry._2(), map.valueType());
                if (!stringKeys) {
                    json.writeEndObject();
                }
            }
            if (stringKeys) {
                json.writeEndObject();
            } else {
                json.writeEndArray();
            }
        } else if (value instanceof Boolean) {
            json.writeBoolean((Boolean) value);
        } else if (value instanceof Byte || value instanceof Short || value instanceof Integer) {
            json.writeNumber(((Number) value).intValue());
        } else if (value instanceof Long) {
            json.writeNumber((Long) value);
        } else if (value instanceof Float) {
            json.writeNumber((Float) value);
        } else if (value instanceof Double) {
            json.writeNumber((Double) value);
        } else if (value instanceof BigDecimal) {
            // Plain digits, as spark-sql prints decimals (BigDecimal.toString may use an exponent).
            json.writeNumber(((BigDecimal) value).toPlainString());
        } else if (value instanceof byte[]) {
            json.writeString(Base64.getEncoder().encodeToString((byte[]) value));
        } else if (value instanceof String) {
            json.writeString((String) value);
        } else {
            json.writeString(text(value, type));
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
                line.add(
                        row.isNullAt(c)
                                ? ""
                                : csv(text(row.get(c), schema.fields()[c].dataType())));
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
                line[c] = format(row.get(c), schema.fields()[c].dataType());
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

    /** One line of the table: line breaks and tabs written as escapes keep the columns aligned. */
    private String format(Object value, DataType type) {
        return text(value, type).replace("\n", "\\n").replace("\r", "\\r").replace("\t", "\\t");
    }

    /** A value as spark-sql prints it ({@code NULL} for null). */
    private String text(Object value, DataType type) {
        return HiveResult.toHiveString(
                new scala.Tuple2<>(value, type), false, timeFormatters, binaryFormatter);
    }

    private static String hex(byte[] bytes) {
        StringBuilder sb = new StringBuilder("X'");
        for (byte b : bytes) {
            sb.append(String.format("%02X", b));
        }
        return sb.append('\'').toString();
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
