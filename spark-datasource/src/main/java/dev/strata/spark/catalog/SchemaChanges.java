package dev.strata.spark.catalog;

import dev.strata.index.options.FullTextDefinition;
import dev.strata.spark.data.SparkTypes;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.paimon.CoreOptions;
import org.apache.paimon.schema.SchemaChange;
import org.apache.paimon.schema.TableSchema;
import org.apache.paimon.types.ArrayType;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.MapType;
import org.apache.paimon.types.RowType;
import org.apache.spark.sql.connector.catalog.TableCatalog;
import org.apache.spark.sql.connector.catalog.TableChange;

/** Translates Spark's ALTER TABLE changes into Paimon schema changes. */
public final class SchemaChanges {

    private SchemaChanges() {}

    /** Unsupported changes fail naming the table. */
    public static List<SchemaChange> toPaimon(
            String table, TableSchema current, List<TableChange> changes) {
        List<SchemaChange> out = new ArrayList<>();
        for (TableChange change : changes) {
            if (change instanceof TableChange.SetProperty) {
                TableChange.SetProperty set = (TableChange.SetProperty) change;
                String key = set.property();
                if (key.equalsIgnoreCase(TableCatalog.PROP_COMMENT)) {
                    out.add(SchemaChange.updateComment(set.value()));
                } else if (key.equalsIgnoreCase(TableCatalog.PROP_COLLATION)) {
                    SparkTypes.checkDefaultCollation(table, "alter table", set.value());
                } else if (!ignoredProperty(key)) {
                    out.add(SchemaChange.setOption(key, set.value()));
                }
            } else if (change instanceof TableChange.RemoveProperty) {
                String key = ((TableChange.RemoveProperty) change).property();
                if (key.equalsIgnoreCase(TableCatalog.PROP_COMMENT)) {
                    out.add(SchemaChange.updateComment(null));
                } else if (!ignoredProperty(key)) {
                    out.add(SchemaChange.removeOption(key));
                }
            } else if (change instanceof TableChange.AddColumn) {
                TableChange.AddColumn add = (TableChange.AddColumn) change;
                String path = String.join(".", add.fieldNames());
                if (add.defaultValue() != null) {
                    throw new UnsupportedOperationException(
                            String.format(
                                    "Cannot add column %s with DEFAULT %s to table %s: Paimon has no "
                                            + "value for a column in the rows already written, so they "
                                            + "would read NULL where SQL says they read the default. "
                                            + "Add the column without a DEFAULT.",
                                    path, add.defaultValue().getSql(), table));
                }
                if (!add.isNullable()) {
                    throw new UnsupportedOperationException(
                            String.format(
                                    "Cannot add column %s to table %s as NOT NULL: the rows already"
                                            + " written have no value for it, so Paimon adds columns"
                                            + " as nullable. Add the column without NOT NULL.",
                                    path, table));
                }
                org.apache.paimon.types.DataType type =
                        SparkTypes.toPaimon(table, path, add.dataType(), null)
                                .copy(add.isNullable());
                out.add(
                        SchemaChange.addColumn(
                                add.fieldNames(),
                                type,
                                add.comment(),
                                move(add.fieldNames(), add.position())));
            } else if (change instanceof TableChange.RenameColumn) {
                TableChange.RenameColumn rename = (TableChange.RenameColumn) change;
                out.add(SchemaChange.renameColumn(rename.fieldNames(), rename.newName()));
            } else if (change instanceof TableChange.DeleteColumn) {
                out.add(SchemaChange.dropColumn(((TableChange.DeleteColumn) change).fieldNames()));
            } else if (change instanceof TableChange.UpdateColumnType) {
                TableChange.UpdateColumnType update = (TableChange.UpdateColumnType) change;
                String path = String.join(".", update.fieldNames());
                org.apache.paimon.types.DataType type =
                        SparkTypes.toPaimon(table, path, update.newDataType(), null);
                checkTypeChange(table, current, update.fieldNames(), type);
                out.add(SchemaChange.updateColumnType(update.fieldNames(), type, true));
            } else if (change instanceof TableChange.UpdateColumnNullability) {
                TableChange.UpdateColumnNullability update =
                        (TableChange.UpdateColumnNullability) change;
                out.add(
                        SchemaChange.updateColumnNullability(
                                update.fieldNames(), update.nullable()));
            } else if (change instanceof TableChange.UpdateColumnComment) {
                TableChange.UpdateColumnComment update = (TableChange.UpdateColumnComment) change;
                checkCommentTarget(table, current, update.fieldNames());
                out.add(SchemaChange.updateColumnComment(update.fieldNames(), update.newComment()));
            } else if (change instanceof TableChange.UpdateColumnDefaultValue) {
                out.add(
                        defaultChange(
                                table, current, (TableChange.UpdateColumnDefaultValue) change));
            } else if (change instanceof TableChange.UpdateColumnPosition) {
                TableChange.UpdateColumnPosition update = (TableChange.UpdateColumnPosition) change;
                SchemaChange.Move move = move(update.fieldNames(), update.position());
                if (move != null) {
                    out.add(SchemaChange.updateColumnPosition(move));
                }
            } else if (change instanceof TableChange.AddConstraint
                    || change instanceof TableChange.DropConstraint) {
                throw new UnsupportedOperationException(
                        String.format(
                                "Cannot alter the constraints of table %s: a Paimon table's primary"
                                        + " key is fixed when the table is created, and it has no"
                                        + " other constraints. Create a new table with the key you"
                                        + " need and INSERT INTO it.",
                                table));
            } else {
                throw new UnsupportedOperationException(
                        String.format(
                                "Cannot alter table %s: Strata does not support the change %s. Supported: SET/UNSET "
                                        + "TBLPROPERTIES, ADD/RENAME/DROP COLUMN, ALTER COLUMN TYPE/COMMENT/NULLABILITY/"
                                        + "POSITION/DEFAULT.",
                                table, change.getClass().getSimpleName()));
            }
        }
        return out;
    }

    /**
     * Why Paimon refused {@code changes}, when one of Paimon's own options is set to a value it
     * cannot parse: its schema change says only "For input string: \"abc\"". Null otherwise.
     */
    public static String optionValueError(String table, List<TableChange> changes) {
        for (TableChange change : changes) {
            if (!(change instanceof TableChange.SetProperty)) {
                continue;
            }
            String key = ((TableChange.SetProperty) change).property();
            String value = ((TableChange.SetProperty) change).value();
            for (org.apache.paimon.options.ConfigOption<?> option : CoreOptions.getOptions()) {
                if (!option.key().equals(key)) {
                    continue;
                }
                try {
                    org.apache.paimon.options.Options.fromMap(java.util.Map.of(key, value))
                            .get(option);
                } catch (RuntimeException e) {
                    return String.format(
                            "Cannot alter table %s: option '%s' cannot be '%s' (%s). Set a value of"
                                    + " the option's type, as Paimon documents it.",
                            table, key, value, e.getMessage());
                }
            }
        }
        return null;
    }

    /** Moves per-column options with a renamed column and removes them with a dropped one. */
    public static List<SchemaChange> fieldOptionsFollowingRenames(
            List<TableChange> changes, java.util.Map<String, String> options) {
        List<SchemaChange> out = new ArrayList<>();
        for (TableChange change : changes) {
            if (change instanceof TableChange.DeleteColumn
                    && ((TableChange.DeleteColumn) change).fieldNames().length == 1) {
                String prefix =
                        CoreOptions.FIELDS_PREFIX
                                + "."
                                + ((TableChange.DeleteColumn) change).fieldNames()[0]
                                + ".";
                options.keySet().stream()
                        .filter(k -> k.startsWith(prefix))
                        .forEach(k -> out.add(SchemaChange.removeOption(k)));
                continue;
            }
            if (!(change instanceof TableChange.RenameColumn)
                    || ((TableChange.RenameColumn) change).fieldNames().length != 1) {
                continue;
            }
            TableChange.RenameColumn rename = (TableChange.RenameColumn) change;
            // Archives name the indexed column by field id, so the index follows a rename.
            if (FullTextDefinition.isEnabled(options)
                    && FullTextDefinition.columnsValue(options)
                            .trim()
                            .equals(rename.fieldNames()[0])) {
                out.add(
                        SchemaChange.setOption(
                                FullTextDefinition.columnsKey(options), rename.newName()));
            }
            String oldPrefix = CoreOptions.FIELDS_PREFIX + "." + rename.fieldNames()[0] + ".";
            String newPrefix = CoreOptions.FIELDS_PREFIX + "." + rename.newName() + ".";
            for (java.util.Map.Entry<String, String> e : options.entrySet()) {
                if (e.getKey().startsWith(oldPrefix)) {
                    out.add(
                            SchemaChange.setOption(
                                    newPrefix + e.getKey().substring(oldPrefix.length()),
                                    e.getValue()));
                    out.add(SchemaChange.removeOption(e.getKey()));
                }
            }
        }
        return out;
    }

    /**
     * A column's type may only widen within its kind ({@link #widens}), and a key or partition
     * column keeps its type. MERGE WITH SCHEMA EVOLUTION asks the catalog for the source's type of
     * every column whose type differs: Paimon accepted BIGINT to INT (the rows already written then
     * read cast), and Spark's up-cast rule let one string value of the source turn a BIGINT column
     * into STRING for good.
     */
    private static void checkTypeChange(
            String table,
            TableSchema current,
            String[] path,
            org.apache.paimon.types.DataType newType) {
        String name = String.join(".", path);
        org.apache.paimon.types.DataType old = typeAt(current.logicalRowType(), path);
        if (old == null || old.copy(true).equals(newType.copy(true))) {
            return;
        }
        String from = old.copy(true).asSQLString();
        String to = newType.copy(true).asSQLString();
        if (throughMapKey(current.logicalRowType(), path)) {
            // Paimon 1.4 applies a change of "m.key" to the map's values: the rows written read
            // their values cast to the key's new type, and fail.
            throw new UnsupportedOperationException(
                    String.format(
                            "Cannot change the type of map key %s of table %s from %s to %s: Paimon"
                                    + " changes the types of map values, array elements and struct"
                                    + " fields, not of map keys. Keep the key type (in MERGE or"
                                    + " INSERT WITH SCHEMA EVOLUTION, CAST the source's map to keys"
                                    + " of %s), or create a new table with the type you need and"
                                    + " INSERT INTO it.",
                            name, table, from, to, from));
        }
        if (current.primaryKeys().contains(path[0]) || current.partitionKeys().contains(path[0])) {
            throw new UnsupportedOperationException(
                    String.format(
                            "Cannot change the type of column %s of table %s from %s to %s: it is a"
                                    + " %s column, whose type Paimon fixes when the table is"
                                    + " created. Keep its type (in MERGE WITH SCHEMA EVOLUTION,"
                                    + " CAST the source column to %s), or create a new table with"
                                    + " the type you need and INSERT INTO it.",
                            name,
                            table,
                            from,
                            to,
                            current.primaryKeys().contains(path[0]) ? "primary-key" : "partition",
                            from));
        }
        if (!widens(old, newType)) {
            throw new UnsupportedOperationException(
                    String.format(
                            "Cannot change the type of column %s of table %s from %s to %s: a"
                                    + " column's type only widens so that the rows already written"
                                    + " keep their values (an integer to a wider integer or to a"
                                    + " DECIMAL with room for its digits, TINYINT, SMALLINT or INT or"
                                    + " FLOAT to DOUBLE, a DECIMAL to one with as many integer digits"
                                    + " and as large a scale, a longer VARCHAR or VARBINARY, DATE to"
                                    + " TIMESTAMP, a finer TIMESTAMP). Keep the column's type (in"
                                    + " MERGE WITH SCHEMA EVOLUTION, CAST the source column to %s).",
                            name, table, from, to, from));
        }
    }

    /**
     * Integers to wider integers, TINYINT..INT to DOUBLE, FLOAT to DOUBLE, integers to a DECIMAL
     * with room for their digits, a DECIMAL to one with as many integer digits and as large a
     * scale, CHAR/VARCHAR to a VARCHAR (STRING) at least as long, VARBINARY likewise, DATE to a
     * TIMESTAMP, a TIMESTAMP to a finer one (the promotions Iceberg and Delta's type widening
     * allow, and a few lossless ones more).
     */
    static boolean widens(
            org.apache.paimon.types.DataType from, org.apache.paimon.types.DataType to) {
        org.apache.paimon.types.DataTypeRoot f = from.getTypeRoot();
        org.apache.paimon.types.DataTypeRoot t = to.getTypeRoot();
        int fromDigits = integerDigits(f);
        int toDigits = integerDigits(t);
        if (fromDigits > 0 && toDigits > 0) {
            return toDigits >= fromDigits;
        }
        if (fromDigits > 0
                && fromDigits <= 10
                && t == org.apache.paimon.types.DataTypeRoot.DOUBLE) {
            return true;
        }
        if (f == org.apache.paimon.types.DataTypeRoot.FLOAT
                && t == org.apache.paimon.types.DataTypeRoot.DOUBLE) {
            return true;
        }
        if (t == org.apache.paimon.types.DataTypeRoot.DECIMAL) {
            org.apache.paimon.types.DecimalType d = (org.apache.paimon.types.DecimalType) to;
            if (fromDigits > 0) {
                return d.getPrecision() - d.getScale() >= fromDigits;
            }
            if (f == org.apache.paimon.types.DataTypeRoot.DECIMAL) {
                org.apache.paimon.types.DecimalType s = (org.apache.paimon.types.DecimalType) from;
                return d.getScale() >= s.getScale()
                        && d.getPrecision() - d.getScale() >= s.getPrecision() - s.getScale();
            }
            return false;
        }
        if ((f == org.apache.paimon.types.DataTypeRoot.CHAR
                        || f == org.apache.paimon.types.DataTypeRoot.VARCHAR)
                && t == org.apache.paimon.types.DataTypeRoot.VARCHAR) {
            return org.apache.paimon.types.DataTypeChecks.getLength(to)
                    >= org.apache.paimon.types.DataTypeChecks.getLength(from);
        }
        if ((f == org.apache.paimon.types.DataTypeRoot.BINARY
                        || f == org.apache.paimon.types.DataTypeRoot.VARBINARY)
                && t == org.apache.paimon.types.DataTypeRoot.VARBINARY) {
            return org.apache.paimon.types.DataTypeChecks.getLength(to)
                    >= org.apache.paimon.types.DataTypeChecks.getLength(from);
        }
        boolean toTimestamp =
                t == org.apache.paimon.types.DataTypeRoot.TIMESTAMP_WITHOUT_TIME_ZONE
                        || t == org.apache.paimon.types.DataTypeRoot.TIMESTAMP_WITH_LOCAL_TIME_ZONE;
        if (f == org.apache.paimon.types.DataTypeRoot.DATE && toTimestamp) {
            return true;
        }
        if (f == t && toTimestamp) {
            return org.apache.paimon.types.DataTypeChecks.getPrecision(to)
                    >= org.apache.paimon.types.DataTypeChecks.getPrecision(from);
        }
        return false;
    }

    /** Decimal digits an integer type holds, 0 for other types. */
    private static int integerDigits(org.apache.paimon.types.DataTypeRoot root) {
        switch (root) {
            case TINYINT:
                return 3;
            case SMALLINT:
                return 5;
            case INTEGER:
                return 10;
            case BIGINT:
                return 19;
            default:
                return 0;
        }
    }

    /** The type at a Spark field path (map {@code key}/{@code value}, array {@code element}). */
    /**
     * Paimon keeps comments on columns and struct fields; a comment on a map's key or value or an
     * array's element landed on the whole column.
     */
    private static void checkCommentTarget(String table, TableSchema current, String[] path) {
        org.apache.paimon.types.DataType type = current.logicalRowType();
        for (int i = 0; i < path.length && type != null; i++) {
            if (type instanceof MapType || type instanceof ArrayType) {
                String column = String.join(".", java.util.Arrays.copyOf(path, i));
                throw new UnsupportedOperationException(
                        String.format(
                                "Cannot set the comment of %s of table %s: Paimon keeps comments on"
                                        + " columns and struct fields, not on a map's key or value or"
                                        + " an array's element. Comment %s instead.",
                                String.join(".", path), table, column));
            }
            type = typeAt(type, new String[] {path[i]});
        }
    }

    /** Whether {@code path} goes through the key of a map (as {@code m.key} or {@code m.key.f}). */
    private static boolean throughMapKey(org.apache.paimon.types.DataType type, String[] path) {
        for (int i = 0; i < path.length && type != null; i++) {
            if (type instanceof MapType && path[i].equals("key")) {
                return true;
            }
            type = typeAt(type, new String[] {path[i]});
        }
        return false;
    }

    private static org.apache.paimon.types.DataType typeAt(
            org.apache.paimon.types.DataType type, String[] path) {
        for (String part : path) {
            if (type instanceof RowType) {
                RowType row = (RowType) type;
                if (!row.containsField(part)) {
                    return null;
                }
                type = row.getField(part).type();
            } else if (type instanceof MapType && part.equals("key")) {
                type = ((MapType) type).getKeyType();
            } else if (type instanceof MapType && part.equals("value")) {
                type = ((MapType) type).getValueType();
            } else if (type instanceof ArrayType && part.equals("element")) {
                type = ((ArrayType) type).getElementType();
            } else {
                return null;
            }
        }
        return type;
    }

    /**
     * SET DEFAULT only on a NOT NULL column: Paimon writes the default in place of NULL, so stored
     * NULLs would become the default whenever their rows are rewritten.
     */
    private static SchemaChange defaultChange(
            String table, TableSchema current, TableChange.UpdateColumnDefaultValue update) {
        String path = String.join(".", update.fieldNames());
        if (update.newCurrentDefault() == null) {
            return SchemaChange.updateColumnDefaultValue(update.fieldNames(), null);
        }
        String sql = update.newCurrentDefault().getSql();
        DataField field =
                update.fieldNames().length == 1
                                && current.logicalRowType().containsField(update.fieldNames()[0])
                        ? current.logicalRowType().getField(update.fieldNames()[0])
                        : null;
        if (field == null) {
            throw new UnsupportedOperationException(
                    String.format(
                            "Cannot set the default %s of column %s of table %s: Spark keeps "
                                    + "defaults for top-level columns only.",
                            sql, path, table));
        }
        if (field.type().isNullable()) {
            throw new UnsupportedOperationException(
                    String.format(
                            "Cannot set the default %s of nullable column %s of table %s: Paimon "
                                    + "writers write a column's default in place of NULL, so NULLs "
                                    + "already stored would turn into %s whenever a later UPDATE or "
                                    + "MERGE rewrites their rows. Declare the default in CREATE TABLE, "
                                    + "or on a NOT NULL column.",
                            sql, path, table, sql));
        }
        String text = ColumnDefaults.forAlter(table, path, sql, field.type());
        return SchemaChange.updateColumnDefaultValue(update.fieldNames(), text);
    }

    private static boolean ignoredProperty(String key) {
        String lower = key.toLowerCase(Locale.ROOT);
        return lower.equals(TableCatalog.PROP_OWNER)
                || lower.equals(TableCatalog.PROP_PROVIDER)
                || lower.equals(TableCatalog.PROP_COLLATION);
    }

    private static SchemaChange.Move move(
            String[] fieldNames, TableChange.ColumnPosition position) {
        if (position == null) {
            return null;
        }
        String field = fieldNames[fieldNames.length - 1];
        if (position instanceof TableChange.First) {
            return SchemaChange.Move.first(field);
        }
        if (position instanceof TableChange.After) {
            return SchemaChange.Move.after(field, ((TableChange.After) position).column());
        }
        return null;
    }
}
