package dev.strata.spark.catalog;

import dev.strata.spark.data.SparkTypes;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.paimon.schema.SchemaChange;
import org.apache.spark.sql.connector.catalog.TableCatalog;
import org.apache.spark.sql.connector.catalog.TableChange;

/** Translates Spark's ALTER TABLE changes into Paimon schema changes. */
public final class SchemaChanges {

    private SchemaChanges() {}

    /**
     * The Paimon changes for the given Spark changes; unsupported changes fail naming the table.
     */
    public static List<SchemaChange> toPaimon(String table, List<TableChange> changes) {
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
                out.add(
                        SchemaChange.updateColumnType(
                                update.fieldNames(),
                                SparkTypes.toPaimon(table, path, update.newDataType(), null),
                                true));
            } else if (change instanceof TableChange.UpdateColumnNullability) {
                TableChange.UpdateColumnNullability update =
                        (TableChange.UpdateColumnNullability) change;
                out.add(
                        SchemaChange.updateColumnNullability(
                                update.fieldNames(), update.nullable()));
            } else if (change instanceof TableChange.UpdateColumnComment) {
                TableChange.UpdateColumnComment update = (TableChange.UpdateColumnComment) change;
                out.add(SchemaChange.updateColumnComment(update.fieldNames(), update.newComment()));
            } else if (change instanceof TableChange.UpdateColumnPosition) {
                TableChange.UpdateColumnPosition update = (TableChange.UpdateColumnPosition) change;
                SchemaChange.Move move = move(update.fieldNames(), update.position());
                if (move != null) {
                    out.add(SchemaChange.updateColumnPosition(move));
                }
            } else {
                throw new UnsupportedOperationException(
                        String.format(
                                "Cannot alter table %s: Strata does not support the change %s. Supported: SET/UNSET "
                                        + "TBLPROPERTIES, ADD/RENAME/DROP COLUMN, ALTER COLUMN TYPE/COMMENT/NULLABILITY/"
                                        + "POSITION.",
                                table, change.getClass().getSimpleName()));
            }
        }
        return out;
    }

    /**
     * The option changes that keep per-column options ({@code fields.<column>.*}, such as a map's
     * storage layout) attached to a column that the given changes rename, and remove them with a
     * dropped column.
     */
    public static List<SchemaChange> fieldOptionsFollowingRenames(
            List<TableChange> changes, java.util.Map<String, String> options) {
        List<SchemaChange> out = new ArrayList<>();
        for (TableChange change : changes) {
            if (change instanceof TableChange.DeleteColumn
                    && ((TableChange.DeleteColumn) change).fieldNames().length == 1) {
                String prefix =
                        "fields." + ((TableChange.DeleteColumn) change).fieldNames()[0] + ".";
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
            String oldPrefix = "fields." + rename.fieldNames()[0] + ".";
            String newPrefix = "fields." + rename.newName() + ".";
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
