package dev.strata.spark;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import dev.strata.spark.catalog.SchemaChanges;
import dev.strata.spark.catalog.StrataTable;
import dev.strata.spark.catalog.StrataTableNames;
import dev.strata.spark.catalog.TableDefinitionChecks;
import dev.strata.spark.catalog.TableDiagnosis;
import dev.strata.spark.data.SparkTypes;
import dev.strata.spark.functions.StrataFunctions;
import dev.strata.spark.procedures.StrataProcedures;
import dev.strata.shredding.parquet.PageChecksums;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Database;
import org.apache.paimon.options.Options;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.schema.SchemaChange;
import org.apache.paimon.schema.SchemaManager;
import org.apache.paimon.schema.TableSchema;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.RowType;
import org.apache.paimon.utils.LazyField;
import org.apache.spark.sql.catalyst.analysis.NamespaceAlreadyExistsException;
import org.apache.spark.sql.catalyst.analysis.NoSuchFunctionException;
import org.apache.spark.sql.catalyst.analysis.NoSuchNamespaceException;
import org.apache.spark.sql.catalyst.analysis.NoSuchTableException;
import org.apache.spark.sql.catalyst.analysis.NonEmptyNamespaceException;
import org.apache.spark.sql.catalyst.analysis.TableAlreadyExistsException;
import org.apache.spark.sql.connector.catalog.FunctionCatalog;
import org.apache.spark.sql.connector.catalog.Identifier;
import org.apache.spark.sql.connector.catalog.NamespaceChange;
import org.apache.spark.sql.connector.catalog.ProcedureCatalog;
import org.apache.spark.sql.connector.catalog.SupportsNamespaces;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableCatalog;
import org.apache.spark.sql.connector.catalog.TableChange;
import org.apache.spark.sql.connector.catalog.functions.UnboundFunction;
import org.apache.spark.sql.connector.catalog.procedures.UnboundProcedure;
import org.apache.spark.sql.connector.expressions.IdentityTransform;
import org.apache.spark.sql.connector.expressions.NamedReference;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * Spark catalog over a Paimon filesystem warehouse.
 *
 * <pre>
 * spark.sql.catalog.lake=dev.strata.spark.StrataCatalog
 * spark.sql.catalog.lake.warehouse=file:/tmp/wh
 * </pre>
 *
 * Namespaces are Paimon databases; tables are Paimon tables whose TBLPROPERTIES are Paimon table options.
 * Every other {@code spark.sql.catalog.<name>.*} key is handed to Paimon as a catalog option. Procedures
 * live in the {@code sys} namespace ({@code CALL lake.sys.compact(table => 'db.t')}); functions (used by
 * writes to route rows to their bucket) are served by {@link FunctionCatalog}.
 */
public class StrataCatalog implements TableCatalog, SupportsNamespaces, ProcedureCatalog, FunctionCatalog {

    /** The namespace holding the catalog's procedures. */
    public static final String SYSTEM_NAMESPACE = "sys";

    private static final Set<String> SPARK_RESERVED_PROPERTIES = Set.of(
            TableCatalog.PROP_PROVIDER,
            TableCatalog.PROP_OWNER,
            TableCatalog.PROP_EXTERNAL,
            TableCatalog.PROP_IS_MANAGED_LOCATION,
            TableCatalog.PROP_COMMENT,
            TableCatalog.PROP_LOCATION,
            TableCatalog.PROP_TABLE_TYPE,
            TableCatalog.PROP_COLLATION);

    private String name;
    private Catalog paimon;

    @Override
    public void initialize(String name, CaseInsensitiveStringMap options) {
        this.name = name;
        Map<String, String> paimonOptions = new HashMap<>(options.asCaseSensitiveMap());
        String warehouse = paimonOptions.get("warehouse");
        if (warehouse == null || warehouse.isBlank()) {
            throw new IllegalArgumentException(String.format(
                    "Cannot initialize catalog %s: option spark.sql.catalog.%s.warehouse is not set. "
                            + "Set it to a directory or URI, e.g. file:/tmp/warehouse.",
                    name, name));
        }
        paimonOptions.putIfAbsent("metastore", "filesystem");
        try {
            this.paimon = CatalogFactory.createCatalog(CatalogContext.create(Options.fromMap(paimonOptions)));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(String.format(
                    "Cannot initialize catalog %s over warehouse %s: %s. Check the warehouse URI and the "
                            + "spark.sql.catalog.%s.* options.",
                    name, warehouse, StrataErrors.rootMessage(e), name), e);
        }
    }

    @Override
    public String name() {
        return name;
    }

    /** The Paimon catalog behind this Spark catalog. */
    public Catalog paimonCatalog() {
        return paimon;
    }

    // ---------------------------------------------------------------------------------------------- namespaces

    @Override
    public String[][] listNamespaces() {
        return paimon.listDatabases().stream().map(db -> new String[] {db}).toArray(String[][]::new);
    }

    @Override
    public String[][] listNamespaces(String[] namespace) throws NoSuchNamespaceException {
        if (namespace.length == 0) {
            return listNamespaces();
        }
        loadNamespaceMetadata(namespace);
        return new String[0][];
    }

    @Override
    public Map<String, String> loadNamespaceMetadata(String[] namespace) throws NoSuchNamespaceException {
        if (namespace.length != 1) {
            throw new NoSuchNamespaceException(namespace);
        }
        try {
            Database database = paimon.getDatabase(namespace[0]);
            Map<String, String> metadata = new LinkedHashMap<>(database.options());
            database.comment().ifPresent(c -> metadata.put(SupportsNamespaces.PROP_COMMENT, c));
            return metadata;
        } catch (Catalog.DatabaseNotExistException e) {
            throw new NoSuchNamespaceException(namespace);
        }
    }

    @Override
    public void createNamespace(String[] namespace, Map<String, String> metadata)
            throws NamespaceAlreadyExistsException {
        if (namespace.length != 1) {
            throw new IllegalArgumentException(String.format(
                    "Cannot create namespace %s in catalog %s: Strata namespaces are one level deep "
                            + "(a Paimon database). Use a single name, e.g. %s.db.",
                    String.join(".", namespace), name, name));
        }
        if (SYSTEM_NAMESPACE.equalsIgnoreCase(namespace[0])) {
            throw new IllegalArgumentException(String.format(
                    "Cannot create namespace %s.%s: the name is reserved for the catalog's procedures. "
                            + "Choose another name.",
                    name, namespace[0]));
        }
        Map<String, String> properties = new HashMap<>(metadata);
        properties.remove(SupportsNamespaces.PROP_OWNER);
        try {
            paimon.createDatabase(namespace[0], false, properties);
        } catch (Catalog.DatabaseAlreadyExistException e) {
            throw new NamespaceAlreadyExistsException(namespace);
        }
    }

    @Override
    public void alterNamespace(String[] namespace, NamespaceChange... changes) {
        throw new UnsupportedOperationException(String.format(
                "Cannot alter namespace %s.%s: Paimon's filesystem catalog keeps database properties fixed "
                        + "after creation. Create a new namespace with the properties you need.",
                name, String.join(".", namespace)));
    }

    @Override
    public boolean dropNamespace(String[] namespace, boolean cascade)
            throws NoSuchNamespaceException, NonEmptyNamespaceException {
        if (namespace.length != 1) {
            throw new NoSuchNamespaceException(namespace);
        }
        try {
            paimon.dropDatabase(namespace[0], false, cascade);
            return true;
        } catch (Catalog.DatabaseNotExistException e) {
            throw new NoSuchNamespaceException(namespace);
        } catch (Catalog.DatabaseNotEmptyException e) {
            throw new NonEmptyNamespaceException(namespace);
        }
    }

    // -------------------------------------------------------------------------------------------------- tables

    @Override
    public Identifier[] listTables(String[] namespace) throws NoSuchNamespaceException {
        if (namespace.length != 1) {
            throw new NoSuchNamespaceException(namespace);
        }
        try {
            return paimon.listTables(namespace[0]).stream()
                    .map(t -> Identifier.of(namespace, t))
                    .toArray(Identifier[]::new);
        } catch (Catalog.DatabaseNotExistException e) {
            throw new NoSuchNamespaceException(namespace);
        }
    }

    @Override
    public StrataTable loadTable(Identifier ident) throws NoSuchTableException {
        return new StrataTable(name, ident, loadPaimonTable(ident));
    }

    @Override
    public Table loadTable(Identifier ident, String version) throws NoSuchTableException {
        FileStoreTable table = loadPaimonTable(ident);
        String option;
        try {
            long snapshot = Long.parseLong(version.trim());
            if (table.snapshotManager().snapshot(snapshot) == null) {
                throw new IllegalArgumentException();
            }
            option = "scan.snapshot-id";
        } catch (RuntimeException e) {
            if (table.tagManager().tagExists(version)) {
                option = "scan.tag-name";
            } else {
                throw StrataErrors.analysis(String.format(
                        "Cannot time travel table %s to VERSION AS OF '%s': no snapshot with that id and no tag "
                                + "with that name. Use a snapshot id from %s.%s.%s$snapshots or a tag name.",
                        StrataTableNames.qualified(name, ident), version, name, ident.namespace()[0],
                        ident.name()));
            }
        }
        return new StrataTable(name, ident, table.copy(Map.of(option, version.trim())));
    }

    @Override
    public Table loadTable(Identifier ident, long timestampMicros) throws NoSuchTableException {
        FileStoreTable table = loadPaimonTable(ident);
        long millis = timestampMicros / 1000;
        return new StrataTable(name, ident, table.copy(Map.of("scan.timestamp-millis", Long.toString(millis))));
    }

    /**
     * Loads the Paimon table behind a Spark identifier, as Strata reads and writes it: a table that does not
     * set {@link PageChecksums#VERIFY_OPTION} (created before Strata set it, or by another engine) gets it as
     * a dynamic option, so Paimon's and Strata's readers verify every page's checksum.
     */
    public FileStoreTable loadPaimonTable(Identifier ident) throws NoSuchTableException {
        FileStoreTable table = loadStoredTable(ident);
        return table.options().containsKey(PageChecksums.VERIFY_OPTION)
                ? table : table.copy(Map.of(PageChecksums.VERIFY_OPTION, "true"));
    }

    /** The Paimon table behind a Spark identifier with its stored options only (for schema changes). */
    private FileStoreTable loadStoredTable(Identifier ident) throws NoSuchTableException {
        org.apache.paimon.catalog.Identifier id = StrataTableNames.toPaimon(name, ident);
        try {
            org.apache.paimon.table.Table table = paimon.getTable(id);
            if (!(table instanceof FileStoreTable)) {
                throw new IllegalArgumentException(String.format(
                        "Cannot load table %s: it is a %s, not a Paimon file store table.",
                        StrataTableNames.qualified(name, ident), table.getClass().getSimpleName()));
            }
            return (FileStoreTable) table;
        } catch (Catalog.TableNotExistException e) {
            throw new NoSuchTableException(ident);
        } catch (RuntimeException e) {
            // A damaged schema file fails Paimon's load without naming the file: find and name it.
            org.apache.paimon.catalog.Catalog root = org.apache.paimon.catalog.DelegateCatalog.rootCatalog(paimon);
            if (root instanceof org.apache.paimon.catalog.AbstractCatalog) {
                org.apache.paimon.catalog.AbstractCatalog fs = (org.apache.paimon.catalog.AbstractCatalog) root;
                java.util.Optional<dev.strata.shredding.parquet.DamagedFileException> damaged =
                        TableDiagnosis.findInSchemas(fs.fileIO(), fs.getTableLocation(id), e);
                if (damaged.isPresent()) {
                    throw new java.io.UncheckedIOException("Cannot load table " + StrataTableNames.qualified(name, ident)
                            + ": " + damaged.get().getMessage(), damaged.get());
                }
            }
            throw e;
        }
    }

    @Override
    public void invalidateTable(Identifier ident) {
        if (ident.namespace().length == 1) {
            paimon.invalidateTable(org.apache.paimon.catalog.Identifier.create(ident.namespace()[0], ident.name()));
        }
    }

    @Override
    @SuppressWarnings("deprecation")
    public Table createTable(
            Identifier ident, StructType schema, Transform[] partitions, Map<String, String> properties)
            throws TableAlreadyExistsException, NoSuchNamespaceException {
        String qualified = StrataTableNames.qualified(name, ident);
        if (ident.namespace().length != 1) {
            throw new NoSuchNamespaceException(ident.namespace());
        }
        if (properties.containsKey(TableCatalog.PROP_LOCATION)
                && !"true".equalsIgnoreCase(properties.get(TableCatalog.PROP_IS_MANAGED_LOCATION))) {
            throw new IllegalArgumentException(String.format(
                    "Cannot create table %s with LOCATION '%s': Strata tables live under the catalog's warehouse. "
                            + "Remove the LOCATION clause.",
                    qualified, properties.get(TableCatalog.PROP_LOCATION)));
        }
        String provider = properties.get(TableCatalog.PROP_PROVIDER);
        if (provider != null && !provider.equalsIgnoreCase("paimon") && !provider.equalsIgnoreCase("strata")) {
            throw new IllegalArgumentException(String.format(
                    "Cannot create table %s USING %s: catalog %s stores Paimon tables only. "
                            + "Omit USING, or write USING paimon.",
                    qualified, provider, name));
        }
        Schema paimonSchema;
        try {
            paimonSchema = toPaimonSchema(qualified, schema, partitions, properties);
            TableDefinitionChecks.checkCreate(qualified, TableSchema.create(0, paimonSchema));
            paimonSchema = TableDefinitionChecks.withDerivedOptions(paimonSchema);
        } catch (RuntimeException e) {
            if (e.getMessage() != null && e.getMessage().contains(qualified)) {
                throw e;
            }
            throw new IllegalArgumentException(String.format(
                    "Cannot create table %s: %s", qualified, StrataErrors.rootMessage(e)), e);
        }
        try {
            paimon.createTable(StrataTableNames.toPaimon(name, ident), paimonSchema, false);
        } catch (Catalog.TableAlreadyExistException e) {
            throw new TableAlreadyExistsException(ident);
        } catch (Catalog.DatabaseNotExistException e) {
            throw new NoSuchNamespaceException(ident.namespace());
        } catch (NoSuchTableException e) {
            throw new NoSuchNamespaceException(ident.namespace());
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(String.format(
                    "Cannot create table %s: %s", qualified, StrataErrors.rootMessage(e)), e);
        }
        try {
            return loadTable(ident);
        } catch (NoSuchTableException e) {
            throw new IllegalStateException("Table " + qualified + " vanished right after it was created", e);
        }
    }

    private static Schema toPaimonSchema(
            String qualified, StructType schema, Transform[] partitions, Map<String, String> properties) {
        RowType rowType = SparkTypes.toPaimon(qualified, schema);
        Schema.Builder builder = Schema.newBuilder();
        for (DataField field : rowType.getFields()) {
            builder.column(field.name(), field.type(), field.description());
        }
        List<String> partitionKeys = new ArrayList<>();
        for (Transform transform : partitions) {
            if (!(transform instanceof IdentityTransform)) {
                throw new IllegalArgumentException(String.format(
                        "Cannot create table %s partitioned by %s: Paimon partitions by plain columns only. "
                                + "Use PARTITIONED BY (col, ...) with column names.",
                        qualified, transform.describe()));
            }
            NamedReference ref = ((IdentityTransform) transform).ref();
            partitionKeys.add(String.join(".", ref.fieldNames()));
        }
        builder.partitionKeys(partitionKeys);
        Map<String, String> options = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : properties.entrySet()) {
            String key = e.getKey();
            if (key.startsWith(TableCatalog.OPTION_PREFIX)) {
                options.put(key.substring(TableCatalog.OPTION_PREFIX.length()), e.getValue());
            } else if (!SPARK_RESERVED_PROPERTIES.contains(key.toLowerCase(Locale.ROOT))) {
                options.put(key, e.getValue());
            }
        }
        options.remove("path");
        // Readers (Paimon's and Strata's) verify each Parquet page's CRC before decoding it.
        options.putIfAbsent(PageChecksums.VERIFY_OPTION, "true");
        builder.options(options);
        if (properties.containsKey(TableCatalog.PROP_COMMENT)) {
            builder.comment(properties.get(TableCatalog.PROP_COMMENT));
        }
        return builder.build();
    }

    @Override
    public Table alterTable(Identifier ident, TableChange... changes) throws NoSuchTableException {
        String qualified = StrataTableNames.qualified(name, ident);
        FileStoreTable table = loadStoredTable(ident);
        TableSchema current = table.schema();
        List<SchemaChange> schemaChanges = new ArrayList<>(SchemaChanges.toPaimon(qualified, Arrays.asList(changes)));
        schemaChanges.addAll(SchemaChanges.fieldOptionsFollowingRenames(Arrays.asList(changes), current.options()));
        TableSchema proposed;
        try {
            proposed = SchemaManager.generateTableSchema(
                    current,
                    schemaChanges,
                    new LazyField<>(() -> table.latestSnapshot().isPresent()),
                    new LazyField<>(() -> StrataTableNames.toPaimonUnchecked(ident)));
        } catch (Exception e) {
            throw new IllegalArgumentException(String.format(
                    "Cannot alter table %s: %s", qualified, StrataErrors.rootMessage(e)), e);
        }
        TableDefinitionChecks.checkAlter(qualified, proposed, current);
        List<SchemaChange> derived = TableDefinitionChecks.derivedOptionChanges(proposed);
        List<SchemaChange> all = new ArrayList<>(schemaChanges);
        all.addAll(derived);
        try {
            paimon.alterTable(StrataTableNames.toPaimon(name, ident), all, false);
        } catch (Catalog.TableNotExistException e) {
            throw new NoSuchTableException(ident);
        } catch (Catalog.ColumnAlreadyExistException | Catalog.ColumnNotExistException | RuntimeException e) {
            throw new IllegalArgumentException(String.format(
                    "Cannot alter table %s: %s", qualified, StrataErrors.rootMessage(e)), e);
        }
        return loadTable(ident);
    }

    @Override
    public boolean dropTable(Identifier ident) {
        try {
            paimon.dropTable(StrataTableNames.toPaimon(name, ident), false);
            return true;
        } catch (Catalog.TableNotExistException | NoSuchTableException e) {
            return false;
        }
    }

    @Override
    public void renameTable(Identifier oldIdent, Identifier newIdent)
            throws NoSuchTableException, TableAlreadyExistsException {
        try {
            paimon.renameTable(
                    StrataTableNames.toPaimon(name, oldIdent), StrataTableNames.toPaimon(name, newIdent), false);
        } catch (Catalog.TableNotExistException e) {
            throw new NoSuchTableException(oldIdent);
        } catch (Catalog.TableAlreadyExistException e) {
            throw new TableAlreadyExistsException(newIdent);
        }
    }

    // ----------------------------------------------------------------------------------- procedures, functions

    @Override
    public UnboundProcedure loadProcedure(Identifier ident) {
        if (ident.namespace().length == 1 && SYSTEM_NAMESPACE.equalsIgnoreCase(ident.namespace()[0])) {
            UnboundProcedure procedure = StrataProcedures.load(this, ident.name());
            if (procedure != null) {
                return procedure;
            }
        }
        throw StrataErrors.analysis(String.format(
                "Cannot find procedure %s in catalog %s. Available procedures: %s.",
                StrataTableNames.qualified(name, ident), name,
                StrataProcedures.names().stream().map(p -> name + "." + SYSTEM_NAMESPACE + "." + p).toList()));
    }

    @Override
    public Identifier[] listProcedures(String[] namespace) {
        if (namespace.length == 1 && SYSTEM_NAMESPACE.equalsIgnoreCase(namespace[0])) {
            return StrataProcedures.names().stream().map(p -> Identifier.of(namespace, p)).toArray(Identifier[]::new);
        }
        return new Identifier[0];
    }

    @Override
    public Identifier[] listFunctions(String[] namespace) throws NoSuchNamespaceException {
        if (namespace.length == 0 || (namespace.length == 1 && SYSTEM_NAMESPACE.equalsIgnoreCase(namespace[0]))) {
            return StrataFunctions.names().stream().map(f -> Identifier.of(namespace, f)).toArray(Identifier[]::new);
        }
        return new Identifier[0];
    }

    @Override
    public UnboundFunction loadFunction(Identifier ident) throws NoSuchFunctionException {
        boolean systemNamespace = ident.namespace().length == 0
                || (ident.namespace().length == 1 && SYSTEM_NAMESPACE.equalsIgnoreCase(ident.namespace()[0]));
        UnboundFunction function = systemNamespace ? StrataFunctions.load(ident.name()) : null;
        if (function == null) {
            throw new NoSuchFunctionException(ident);
        }
        return function;
    }
}
