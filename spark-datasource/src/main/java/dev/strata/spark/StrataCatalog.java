package dev.strata.spark;

import dev.strata.index.PkFullTextIndex;
import dev.strata.index.options.FullTextDefinition;
import dev.strata.shredding.parquet.PageChecksums;
import dev.strata.spark.catalog.ColumnDefaults;
import dev.strata.spark.catalog.CommitSafety;
import dev.strata.spark.catalog.LocationOptions;
import dev.strata.spark.catalog.PaimonSystemTable;
import dev.strata.spark.catalog.SchemaChanges;
import dev.strata.spark.catalog.StrataSystemTables;
import dev.strata.spark.catalog.StrataTableNames;
import dev.strata.spark.catalog.TableDefinitionChecks;
import dev.strata.spark.catalog.TableDiagnosis;
import dev.strata.spark.catalog.WarehouseNames;
import dev.strata.spark.config.CatalogSettings;
import dev.strata.spark.config.SparkCacheSettings;
import dev.strata.spark.data.SparkTypes;
import dev.strata.spark.errors.StrataErrors;
import dev.strata.spark.functions.StrataFunctions;
import dev.strata.spark.procedures.StrataProcedures;
import dev.strata.spark.procedures.TableResolver;
import dev.strata.spark.table.StagedStrataTable;
import dev.strata.spark.table.StrataTable;
import dev.strata.spark.table.TimeTravel;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.paimon.CoreOptions;
import org.apache.paimon.Snapshot;
import org.apache.paimon.catalog.AbstractCatalog;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Database;
import org.apache.paimon.fs.Path;
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
import org.apache.spark.sql.connector.catalog.StagedTable;
import org.apache.spark.sql.connector.catalog.StagingTableCatalog;
import org.apache.spark.sql.connector.catalog.SupportsNamespaces;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableCatalog;
import org.apache.spark.sql.connector.catalog.TableCatalogCapability;
import org.apache.spark.sql.connector.catalog.TableChange;
import org.apache.spark.sql.connector.catalog.TableInfo;
import org.apache.spark.sql.connector.catalog.constraints.Constraint;
import org.apache.spark.sql.connector.catalog.constraints.PrimaryKey;
import org.apache.spark.sql.connector.catalog.functions.UnboundFunction;
import org.apache.spark.sql.connector.catalog.procedures.UnboundProcedure;
import org.apache.spark.sql.connector.expressions.IdentityTransform;
import org.apache.spark.sql.connector.expressions.NamedReference;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.internal.SQLConf;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Spark catalog over a Paimon filesystem warehouse ({@code spark.sql.catalog.lake.warehouse}).
 *
 * <p>Namespaces are Paimon databases; TBLPROPERTIES are Paimon table options. Other catalog keys go
 * to Paimon as catalog options, except {@code allow-external-paths} (default false; see {@link
 * LocationOptions}). Names are checked by {@link WarehouseNames} before any file operation, and
 * DROP deletes only the object's own directory inside the warehouse. Procedures live in the {@code
 * sys} namespace.
 */
public class StrataCatalog
        implements StagingTableCatalog,
                SupportsNamespaces,
                ProcedureCatalog,
                FunctionCatalog,
                TableResolver {

    public static final String SYSTEM_NAMESPACE = "sys";

    /**
     * Name prefix of the table a CREATE OR REPLACE / REPLACE TABLE writes before it replaces the
     * old one; SHOW TABLES leaves such tables out.
     */
    static final String STAGED_PREFIX = "__strata_staged_";

    @Override
    public Set<TableCatalogCapability> capabilities() {
        // Defaults are stored in Paimon's schema, where every Paimon writer applies them.
        return Set.of(
                TableCatalogCapability.SUPPORT_COLUMN_DEFAULT_VALUE,
                TableCatalogCapability.SUPPORT_TABLE_CONSTRAINT);
    }

    private static final Logger LOG = LoggerFactory.getLogger(StrataCatalog.class);

    /** Location and schema id of tables whose legacy full-text keys were reported. */
    private static final Set<String> LEGACY_WARNED = ConcurrentHashMap.newKeySet();

    private static final Set<String> SPARK_RESERVED_PROPERTIES =
            Set.of(
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

    /**
     * Per table, the cached table object and the schema file it was last found current against (a
     * table Paimon loads again is a new object, so an entry of the old one no longer matches); an
     * entry this cache drops costs one read of the schema file.
     */
    private final dev.strata.shredding.cache.BoundedCache<
                    org.apache.paimon.catalog.Identifier, CheckedSchema>
            checkedSchemas = dev.strata.shredding.cache.BoundedCache.of(1024);

    /** Per table, the last cached table object with Strata's options ({@link #loadPaimonTable}). */
    private final dev.strata.shredding.cache.BoundedCache<Identifier, WithOptions> withOptions =
            dev.strata.shredding.cache.BoundedCache.of(1024);

    private String warehouse;
    private boolean allowExternalPaths;

    /** Paimon's filesystem metastore keeps no namespace properties (it drops them, logging). */
    private boolean filesystemMetastore;

    @Override
    public void initialize(String name, CaseInsensitiveStringMap options) {
        this.name = name;
        Map<String, String> paimonOptions = new HashMap<>(options.asCaseSensitiveMap());
        String warehouse = paimonOptions.get("warehouse");
        if (warehouse == null || warehouse.isBlank()) {
            throw new IllegalArgumentException(
                    String.format(
                            "Cannot initialize catalog %s: option spark.sql.catalog.%s.warehouse is not set. "
                                    + "Set it to a directory or URI, e.g. file:/tmp/warehouse.",
                            name, name));
        }
        this.allowExternalPaths =
                CatalogSettings.ALLOW_EXTERNAL_PATHS.read(
                        options.get(CatalogSettings.ALLOW_EXTERNAL_PATHS.key()),
                        "initialize catalog " + name);
        // Fail on a bad cache size here rather than later inside a task.
        new SparkCacheSettings().footerCacheFiles();
        new SparkCacheSettings().openArchives();
        paimonOptions
                .keySet()
                .removeIf(k -> k.equalsIgnoreCase(CatalogSettings.ALLOW_EXTERNAL_PATHS.key()));
        this.warehouse = warehouse;
        paimonOptions.putIfAbsent("metastore", "filesystem");
        paimonOptions.put(dev.strata.spark.catalog.CommitSafety.SPARK_CATALOG_OPTION, name);
        this.filesystemMetastore = "filesystem".equalsIgnoreCase(paimonOptions.get("metastore"));
        // Only Strata's 'parquet' format handles shredded columns: refuse if it is shadowed.
        dev.strata.shredding.format.StrataParquetFileFormatFactory.checkResolved();
        try {
            // Spark's Hadoop configuration gives file systems such as s3a their credentials.
            this.paimon =
                    CatalogFactory.createCatalog(
                            dev.strata.spark.catalog.LocalCommitFileIO.catalogContext(
                                    Options.fromMap(paimonOptions), sparkHadoopConfiguration()));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(
                    String.format(
                            "Cannot initialize catalog %s over warehouse %s: %s. Check the warehouse URI and the "
                                    + "spark.sql.catalog.%s.* options.",
                            name, warehouse, StrataErrors.rootMessage(e), name),
                    e);
        }
    }

    private static org.apache.hadoop.conf.Configuration sparkHadoopConfiguration() {
        return org.apache.spark.sql.SparkSession.active().sessionState().newHadoopConf();
    }

    @Override
    public String name() {
        return name;
    }

    public Catalog paimonCatalog() {
        return paimon;
    }

    // ---------------------------------------------------------------------------------------------- namespaces

    @Override
    public String[][] listNamespaces() {
        return paimon.listDatabases().stream()
                .map(db -> new String[] {db})
                .toArray(String[][]::new);
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
    public Map<String, String> loadNamespaceMetadata(String[] namespace)
            throws NoSuchNamespaceException {
        if (namespace.length != 1) {
            throw new NoSuchNamespaceException(namespace);
        }
        checkNamespace("use namespace", namespace);
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
            throw new IllegalArgumentException(
                    String.format(
                            "Cannot create namespace %s in catalog %s: Strata namespaces are one level deep "
                                    + "(a Paimon database). Use a single name, e.g. %s.db.",
                            String.join(".", namespace), name, name));
        }
        if (SYSTEM_NAMESPACE.equalsIgnoreCase(namespace[0])) {
            throw new IllegalArgumentException(
                    String.format(
                            "Cannot create namespace %s.%s: the name is reserved for the catalog's procedures. "
                                    + "Choose another name.",
                            name, namespace[0]));
        }
        checkNamespace("create namespace", namespace);
        Map<String, String> properties = new HashMap<>(metadata);
        properties.remove(SupportsNamespaces.PROP_OWNER);
        if (properties.containsKey(SupportsNamespaces.PROP_LOCATION)) {
            throw new IllegalArgumentException(
                    String.format(
                            "Cannot create namespace %s with LOCATION '%s': namespaces of catalog %s live in the warehouse "
                                    + "at <namespace>.db. Remove the LOCATION clause.",
                            StrataTableNames.qualifiedNamespace(name, namespace),
                            properties.get(SupportsNamespaces.PROP_LOCATION),
                            name));
        }
        if (filesystemMetastore && !properties.isEmpty()) {
            throw new IllegalArgumentException(
                    String.format(
                            "Cannot create namespace %s with %s: a filesystem warehouse keeps no"
                                    + " namespace properties, so Paimon would drop them. Remove the"
                                    + " COMMENT and WITH DBPROPERTIES clauses, or give the catalog a"
                                    + " metastore that keeps them (spark.sql.catalog.%s.metastore).",
                            StrataTableNames.qualifiedNamespace(name, namespace),
                            properties.containsKey(SupportsNamespaces.PROP_COMMENT)
                                            && properties.size() == 1
                                    ? "COMMENT '"
                                            + properties.get(SupportsNamespaces.PROP_COMMENT)
                                            + "'"
                                    : "properties " + new java.util.TreeMap<>(properties),
                            name));
        }
        try {
            paimon.createDatabase(namespace[0], false, properties);
        } catch (Catalog.DatabaseAlreadyExistException e) {
            throw new NamespaceAlreadyExistsException(namespace);
        }
    }

    @Override
    public void alterNamespace(String[] namespace, NamespaceChange... changes) {
        throw new UnsupportedOperationException(
                String.format(
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
        String action = "drop namespace " + StrataTableNames.qualifiedNamespace(name, namespace);
        checkNamespace("drop namespace", namespace);
        WarehouseNames.checkOwnDirectory(
                action,
                new Path(warehouse),
                AbstractCatalog.newDatabasePath(warehouse, namespace[0]),
                List.of(namespace[0] + Catalog.DB_SUFFIX));
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
        if (namespace.length == 0) {
            throw StrataErrors.analysis(
                    String.format(
                            "Cannot list the tables of catalog %s: no namespace is selected (USE %s"
                                    + " selects the catalog only). Write SHOW TABLES IN %s.<db>, or"
                                    + " USE %s.<db> first.",
                            name, name, name, name));
        }
        if (namespace.length != 1) {
            throw new NoSuchNamespaceException(namespace);
        }
        checkNamespace("list tables in", namespace);
        try {
            return paimon.listTables(namespace[0]).stream()
                    .filter(t -> !isStagedName(t))
                    .map(t -> Identifier.of(namespace, t))
                    .toArray(Identifier[]::new);
        } catch (Catalog.DatabaseNotExistException e) {
            throw new NoSuchNamespaceException(namespace);
        }
    }

    /**
     * A Strata table, or a read-only system table: Strata's ({@link StrataSystemTables}) or
     * Paimon's ({@code t$snapshots}, ...).
     */
    @Override
    public Table loadTable(Identifier ident) throws NoSuchTableException {
        try {
            return loadExistingTable(ident);
        } catch (NoSuchTableException e) {
            refuseInterruptedReplace(ident);
            throw e;
        }
    }

    /** Without {@link #refuseInterruptedReplace}: a CREATE TABLE of the name may go ahead. */
    @Override
    public boolean tableExists(Identifier ident) {
        try {
            loadExistingTable(ident);
            return true;
        } catch (NoSuchTableException e) {
            return false;
        }
    }

    private Table loadExistingTable(Identifier ident) throws NoSuchTableException {
        if (ident.name().contains("$")) {
            int dollar = ident.name().lastIndexOf('$');
            int first = ident.name().indexOf('$');
            if (first != dollar && !ident.name().startsWith("branch_", first + 1)) {
                throw StrataErrors.analysis(
                        String.format(
                                "Cannot load table %s: a system table is named <table>$<system table>, or "
                                        + "<table>$branch_<branch>$<system table> for a branch, but '%s' holds "
                                        + "another '$'. Query one system table of the table, e.g. %s.",
                                StrataTableNames.qualified(name, ident),
                                ident.name(),
                                StrataTableNames.systemTable(
                                        name,
                                        Identifier.of(
                                                ident.namespace(),
                                                ident.name().substring(0, first)),
                                        ident.name().substring(dollar + 1))));
            }
            StrataSystemTables.Factory strataSystemTable =
                    StrataSystemTables.forSuffix(ident.name().substring(dollar + 1));
            if (strataSystemTable != null) {
                Identifier base =
                        Identifier.of(ident.namespace(), ident.name().substring(0, dollar));
                return strataSystemTable.create(
                        StrataTableNames.qualified(name, ident),
                        StrataTableNames.qualified(name, base),
                        loadPaimonTable(base));
            }
            org.apache.paimon.table.Table table = loadAnyTable(ident);
            if (!(table instanceof FileStoreTable)) {
                return new PaimonSystemTable(StrataTableNames.qualified(name, ident), table);
            }
        }
        return new StrataTable(name, ident, loadPaimonTable(ident));
    }

    private static boolean isStagedName(String table) {
        return table.regionMatches(true, 0, STAGED_PREFIX, 0, STAGED_PREFIX.length());
    }

    private void refuseStagedName(String action, Identifier ident) {
        if (isStagedName(ident.name())) {
            throw new IllegalArgumentException(
                    String.format(
                            "Cannot %s: names starting with '%s' are reserved for the tables"
                                    + " CREATE OR REPLACE TABLE writes before they take their"
                                    + " name. Choose another name.",
                            action, STAGED_PREFIX));
        }
    }

    /**
     * The table is missing, but a replacement of it was staged: the replace was stopped between
     * dropping the old table and renaming the new one into place (or is in that step now).
     */
    private void refuseInterruptedReplace(Identifier ident) {
        if (ident.namespace().length != 1 || isStagedName(ident.name())) {
            return;
        }
        String prefix = stagedPrefix(ident);
        List<String> staged;
        try {
            staged =
                    paimon.listTables(ident.namespace()[0]).stream()
                            .filter(
                                    t ->
                                            t.regionMatches(true, 0, prefix, 0, prefix.length())
                                                    && t.substring(prefix.length())
                                                            .matches("[0-9a-f]{12}"))
                            .sorted()
                            .toList();
        } catch (Catalog.DatabaseNotExistException e) {
            return;
        }
        if (staged.isEmpty()) {
            return;
        }
        String qualified = StrataTableNames.qualified(name, ident);
        String newTable =
                StrataTableNames.qualified(
                        name, Identifier.of(ident.namespace(), staged.get(staged.size() - 1)));
        throw StrataErrors.analysis(
                String.format(
                        "Cannot load table %s: it does not exist, but a CREATE OR REPLACE TABLE"
                                + " of it dropped the old table and stopped before its new table"
                                + " %s took the name (or is doing so now). If no such statement"
                                + " is running, check that table's rows and ALTER TABLE %s"
                                + " RENAME TO %s, or DROP TABLE it.",
                        qualified, newTable, newTable, qualified));
    }

    /** The name before the 12 hex digits of {@code ident}'s staged replacements. */
    private static String stagedPrefix(Identifier ident) {
        // A name of its own at most ~130 bytes long, whatever the table's (names are <= 200).
        String base = ident.name().length() > 100 ? ident.name().substring(0, 100) : ident.name();
        return STAGED_PREFIX + base + "_";
    }

    /** They were not found at all ("TABLE_OR_VIEW_NOT_FOUND"). */
    private void refuseTimeTravelOfStrataSystemTable(Identifier ident, String travel) {
        int dollar = ident.name().lastIndexOf('$');
        if (dollar < 0
                || StrataSystemTables.forSuffix(ident.name().substring(dollar + 1)) == null) {
            return;
        }
        Identifier base = Identifier.of(ident.namespace(), ident.name().substring(0, dollar));
        throw StrataErrors.analysis(
                String.format(
                        "Cannot time travel %s to %s: Strata's system tables describe the latest"
                                + " snapshot only. Query it without %s, or time travel the table"
                                + " itself (SELECT ... FROM %s %s ...).",
                        StrataTableNames.qualified(name, ident),
                        travel,
                        travel,
                        StrataTableNames.qualified(name, base),
                        travel));
    }

    @Override
    public Table loadTable(Identifier ident, String version) throws NoSuchTableException {
        refuseTimeTravelOfStrataSystemTable(ident, "VERSION AS OF");
        FileStoreTable table = loadPaimonTable(ident);
        String option;
        try {
            long snapshot = Long.parseLong(version.trim());
            if (table.snapshotManager().snapshot(snapshot) == null) {
                throw new IllegalArgumentException();
            }
            option = "scan.snapshot-id";
        } catch (RuntimeException e) {
            WarehouseNames.check(
                    "time travel table "
                            + StrataTableNames.qualified(name, ident)
                            + " to VERSION AS OF",
                    WarehouseNames.Kind.TAG,
                    version);
            if (table.tagManager().tagExists(version)) {
                option = "scan.tag-name";
            } else {
                throw StrataErrors.analysis(
                        String.format(
                                "Cannot time travel table %s to VERSION AS OF '%s': no snapshot with that id and no tag "
                                        + "with that name. Use a snapshot id from %s or a tag name.",
                                StrataTableNames.qualified(name, ident),
                                version,
                                StrataTableNames.systemTable(name, ident, "snapshots")));
            }
        }
        return new StrataTable(name, ident, TimeTravel.copy(table, Map.of(option, version.trim())));
    }

    @Override
    public Table loadTable(Identifier ident, long timestampMicros) throws NoSuchTableException {
        refuseTimeTravelOfStrataSystemTable(ident, "TIMESTAMP AS OF");
        FileStoreTable table = loadPaimonTable(ident);
        long millis = timestampMicros / 1000;
        Snapshot earliest = table.snapshotManager().earliestSnapshot();
        if (earliest == null || earliest.timeMillis() > millis) {
            ZoneId zone = ZoneId.of(SQLConf.get().sessionLocalTimeZone());
            DateTimeFormatter time = DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss.SSS");
            throw StrataErrors.analysis(
                    String.format(
                            "Cannot time travel table %s to TIMESTAMP AS OF %s: %s. Use a later time, "
                                    + "or see %s.",
                            StrataTableNames.qualified(name, ident),
                            time.format(
                                    LocalDateTime.ofInstant(Instant.ofEpochMilli(millis), zone)),
                            earliest == null
                                    ? "the table has no snapshot yet"
                                    : "its earliest snapshot ("
                                            + earliest.id()
                                            + ") was committed at "
                                            + time.format(
                                                    LocalDateTime.ofInstant(
                                                            Instant.ofEpochMilli(
                                                                    earliest.timeMillis()),
                                                            zone)),
                            StrataTableNames.systemTable(name, ident, "snapshots")));
        }
        return new StrataTable(
                name,
                ident,
                TimeTravel.copy(table, Map.of("scan.timestamp-millis", Long.toString(millis))));
    }

    /**
     * The Paimon table as Strata reads and writes it: {@link PageChecksums#VERIFY_OPTION} is added
     * when missing (older tables, other engines) so readers verify every page's checksum, and a
     * full-text table's writers use {@link PkFullTextIndex#writeDefaults}.
     */
    @Override
    public FileStoreTable loadPaimonTable(Identifier ident) throws NoSuchTableException {
        FileStoreTable stored = loadStoredTable(ident);
        warnOfLegacyFullTextKeys(StrataTableNames.qualified(name, ident), stored);
        WithOptions known = withOptions.get(ident);
        if (known != null && known.stored() == stored) {
            return known.table();
        }
        Map<String, String> dynamic =
                new HashMap<>(PkFullTextIndex.writeDefaults(stored.options()));
        if (!stored.options().containsKey(PageChecksums.VERIFY_OPTION)) {
            dynamic.put(PageChecksums.VERIFY_OPTION, "true");
        }
        FileStoreTable table = dynamic.isEmpty() ? stored : stored.copy(dynamic);
        withOptions.put(ident, new WithOptions(stored, table));
        return table;
    }

    /** A cached table object and its copy with Strata's options (a copy validates the schema). */
    private record WithOptions(FileStoreTable stored, FileStoreTable table) {}

    /**
     * Warns once per table and schema of legacy full-text keys, which Paimon 2.0 reads as its own
     * index (its writers then fail). Strata does not move them: it cannot tell such a table from
     * one meant for Paimon's index.
     */
    private static void warnOfLegacyFullTextKeys(String qualified, FileStoreTable table) {
        Map<String, String> options = table.schema().options();
        if (!FullTextDefinition.hasLegacyKeys(options)
                || options.containsKey(FullTextDefinition.COLUMNS)
                || !LEGACY_WARNED.add(table.location() + "#" + table.schema().id())) {
            return;
        }
        LOG.warn(
                "Table {} enables Strata's full-text archives with option '{}', which Apache Paimon"
                        + " 2.0 reads as its own full-text index, so Paimon 2.0 cannot write the"
                        + " table. Strata still reads the old keys {}. Move them with: ALTER TABLE"
                        + " {} SET TBLPROPERTIES ('{}' = '{}')",
                qualified,
                FullTextDefinition.LEGACY_COLUMNS,
                FullTextDefinition.legacyKeys(options),
                qualified,
                FullTextDefinition.COLUMNS,
                options.get(FullTextDefinition.LEGACY_COLUMNS).trim());
    }

    /** With stored options only, for schema changes. */
    private FileStoreTable loadStoredTable(Identifier ident) throws NoSuchTableException {
        org.apache.paimon.table.Table table = loadAnyTable(ident);
        if (!(table instanceof FileStoreTable)) {
            throw new IllegalArgumentException(
                    String.format(
                            "Cannot use %s as a data table: it is Paimon's system table %s, which can only be read. Query it "
                                    + "with SELECT, or name the data table without the '$' suffix.",
                            StrataTableNames.qualified(name, ident),
                            table.getClass().getSimpleName()));
        }
        return (FileStoreTable) table;
    }

    private org.apache.paimon.table.Table loadAnyTable(Identifier ident)
            throws NoSuchTableException {
        org.apache.paimon.catalog.Identifier id =
                StrataTableNames.toPaimon(name, ident, "use table");
        try {
            dropIfStale(id);
            return paimon.getTable(id);
        } catch (Catalog.TableNotExistException e) {
            throw new NoSuchTableException(ident);
        } catch (RuntimeException e) {
            // Paimon's error does not name a damaged schema file: find it.
            org.apache.paimon.catalog.Catalog root =
                    org.apache.paimon.catalog.DelegateCatalog.rootCatalog(paimon);
            if (root instanceof org.apache.paimon.catalog.AbstractCatalog) {
                org.apache.paimon.catalog.AbstractCatalog fs =
                        (org.apache.paimon.catalog.AbstractCatalog) root;
                java.util.Optional<dev.strata.shredding.io.DamagedFileException> damaged =
                        TableDiagnosis.findInSchemas(fs.fileIO(), fs.getTableLocation(id), e);
                if (damaged.isPresent()) {
                    throw new java.io.UncheckedIOException(
                            "Cannot load table "
                                    + StrataTableNames.qualified(name, ident)
                                    + ": "
                                    + damaged.get().getMessage(),
                            damaged.get());
                }
                java.util.Optional<String> format =
                        unknownFileFormat(fs.fileIO(), fs.getTableLocation(id), e);
                if (format.isPresent()) {
                    throw new IllegalArgumentException(
                            "Cannot load table "
                                    + StrataTableNames.qualified(name, ident)
                                    + ": "
                                    + format.get(),
                            e);
                }
            }
            throw e;
        }
    }

    /**
     * Which format option names a format no installed {@code FileFormatFactory} provides (e.g.
     * early Strata's {@code strata-shredded}); Paimon's refusal does not say.
     */
    private static java.util.Optional<String> unknownFileFormat(
            org.apache.paimon.fs.FileIO fileIO,
            org.apache.paimon.fs.Path location,
            RuntimeException failure) {
        boolean formatMissing = false;
        for (Throwable t = failure; t != null && !formatMissing; t = t.getCause()) {
            formatMissing = t instanceof org.apache.paimon.factories.FactoryException;
        }
        if (!formatMissing) {
            return java.util.Optional.empty();
        }
        java.util.Optional<TableSchema> latest;
        try {
            latest = new org.apache.paimon.schema.SchemaManager(fileIO, location).latest();
        } catch (RuntimeException e) {
            return java.util.Optional.empty();
        }
        if (latest.isEmpty()) {
            return java.util.Optional.empty();
        }
        for (String key :
                List.of(
                        org.apache.paimon.CoreOptions.FILE_FORMAT.key(),
                        org.apache.paimon.CoreOptions.CHANGELOG_FILE_FORMAT.key())) {
            String value = latest.get().options().get(key);
            if (value == null) {
                continue;
            }
            try {
                org.apache.paimon.factories.FormatFactoryUtil.discoverFactory(
                        org.apache.paimon.format.FileFormat.class.getClassLoader(),
                        value.trim().toLowerCase(java.util.Locale.ROOT));
            } catch (org.apache.paimon.factories.FactoryException e) {
                return java.util.Optional.of(
                        "option '"
                                + key
                                + "' is '"
                                + value
                                + "', a file format no Paimon format on the class path provides"
                                + " (Strata reads and writes 'parquet'). Rewrite the table's files"
                                + " with the engine that wrote them (set '"
                                + key
                                + "' = 'parquet' there and compact every bucket), then load it"
                                + " here.");
            }
        }
        return java.util.Optional.empty();
    }

    /**
     * Paimon's catalog caches a table's schema for minutes, so another writer's ALTER, DROP or
     * re-CREATE would go unseen. Invalidates the cached table when the latest schema on storage
     * differs in id or write time (dropped and re-created). The schema file is read only when the
     * listing shows another file than the one this cached table was last checked against: each
     * statement loads its tables, and on object storage a read is a request of its own.
     */
    private void dropIfStale(org.apache.paimon.catalog.Identifier id) {
        org.apache.paimon.catalog.Identifier data =
                new org.apache.paimon.catalog.Identifier(
                        id.getDatabaseName(), id.getTableName(), id.getBranchName(), null);
        org.apache.paimon.table.Table loaded;
        try {
            loaded = paimon.getTable(data);
        } catch (Catalog.TableNotExistException e) {
            return;
        }
        if (!(loaded instanceof FileStoreTable)) {
            return;
        }
        FileStoreTable table = (FileStoreTable) loaded;
        SchemaManager schemas = table.schemaManager();
        org.apache.paimon.fs.FileStatus file = latestSchemaFile(table.fileIO(), schemas);
        CheckedSchema checked = checkedSchemas.get(data);
        if (file != null && checked != null && checked.table == table && checked.sameFile(file)) {
            return;
        }
        java.util.Optional<TableSchema> latest =
                file == null ? java.util.Optional.empty() : schemas.latest();
        if (latest.isEmpty()
                || latest.get().id() != table.schema().id()
                || latest.get().timeMillis() != table.schema().timeMillis()) {
            paimon.invalidateTable(data);
            return;
        }
        checkedSchemas.put(data, new CheckedSchema(table, file));
    }

    /**
     * The schema file of the highest id in the table's schema directory, or null if none. One
     * listing: Paimon's {@code FileUtils.listVersionedFileStatus} asks whether the directory exists
     * first, a request of its own on object storage.
     */
    private static org.apache.paimon.fs.FileStatus latestSchemaFile(
            org.apache.paimon.fs.FileIO fileIO, SchemaManager schemas) {
        org.apache.paimon.fs.FileStatus[] files;
        try {
            files = fileIO.listStatus(schemas.schemaDirectory());
        } catch (java.io.FileNotFoundException e) {
            return null;
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        org.apache.paimon.fs.FileStatus latest = null;
        long latestId = -1;
        for (org.apache.paimon.fs.FileStatus f :
                files == null ? new org.apache.paimon.fs.FileStatus[0] : files) {
            String name = f.getPath().getName();
            if (f.isDir() || !name.startsWith(SCHEMA_FILE_PREFIX)) {
                continue;
            }
            long fileId;
            try {
                fileId = Long.parseLong(name.substring(SCHEMA_FILE_PREFIX.length()));
            } catch (NumberFormatException e) {
                continue; // not a schema version (a temporary file of a writer)
            }
            if (fileId > latestId) {
                latestId = fileId;
                latest = f;
            }
        }
        return latest;
    }

    /** Paimon's schema files are {@code schema-<id>} in the table's {@code schema} directory. */
    private static final String SCHEMA_FILE_PREFIX = "schema-";

    /**
     * A cached table whose schema matched the latest schema file on storage: the file's length and
     * modification time tell whether it is still the same file.
     */
    private static final class CheckedSchema {
        final FileStoreTable table;
        final String path;
        final long length;
        final long modified;

        CheckedSchema(FileStoreTable table, org.apache.paimon.fs.FileStatus file) {
            this.table = table;
            this.path = file.getPath().toString();
            this.length = file.getLen();
            this.modified = file.getModificationTime();
        }

        boolean sameFile(org.apache.paimon.fs.FileStatus file) {
            return path.equals(file.getPath().toString())
                    && length == file.getLen()
                    && modified == file.getModificationTime();
        }
    }

    @Override
    public void invalidateTable(Identifier ident) {
        if (ident.namespace().length == 1) {
            paimon.invalidateTable(
                    org.apache.paimon.catalog.Identifier.create(
                            ident.namespace()[0], ident.name()));
        }
    }

    /**
     * A PRIMARY KEY constraint becomes Paimon's (always enforced) {@code primary-key}; other
     * constraints are refused.
     */
    @Override
    public Table createTable(Identifier ident, TableInfo info)
            throws TableAlreadyExistsException, NoSuchNamespaceException {
        return createTable(ident, ident, info);
    }

    /** Creates {@code ident}'s definition under the name {@code storedAs}. */
    private Table createTable(Identifier ident, Identifier storedAs, TableInfo info)
            throws TableAlreadyExistsException, NoSuchNamespaceException {
        Map<String, String> properties = info.properties();
        Constraint[] constraints = info.constraints();
        if (constraints != null && constraints.length > 0) {
            String qualified = StrataTableNames.qualified(name, ident);
            properties = new HashMap<>(properties);
            for (Constraint constraint : constraints) {
                if (!(constraint instanceof PrimaryKey)) {
                    throw new IllegalArgumentException(
                            String.format(
                                    "Cannot create table %s with constraint %s: Paimon tables have"
                                            + " a primary key only, no CHECK, UNIQUE or FOREIGN KEY"
                                            + " constraints. Remove the constraint.",
                                    qualified, constraint.toDDL()));
                }
                List<String> columns = new ArrayList<>();
                for (NamedReference column : ((PrimaryKey) constraint).columns()) {
                    columns.add(String.join(".", column.fieldNames()));
                }
                String keys = String.join(",", columns);
                String option = properties.get(CoreOptions.PRIMARY_KEY.key());
                if (option != null
                        && !Arrays.asList(option.split(",")).stream()
                                .map(String::trim)
                                .toList()
                                .equals(columns)) {
                    throw new IllegalArgumentException(
                            String.format(
                                    "Cannot create table %s: PRIMARY KEY (%s) and TBLPROPERTIES"
                                            + " '%s' = '%s' name different keys. Give the key once.",
                                    qualified, keys, CoreOptions.PRIMARY_KEY.key(), option));
                }
                properties.put(CoreOptions.PRIMARY_KEY.key(), keys);
            }
        }
        return createTable(
                ident,
                storedAs,
                org.apache.spark.sql.connector.catalog.CatalogV2Util.v2ColumnsToStructType(
                        info.columns()),
                info.partitions(),
                properties);
    }

    @Override
    @SuppressWarnings("deprecation")
    public Table createTable(
            Identifier ident,
            StructType schema,
            Transform[] partitions,
            Map<String, String> properties)
            throws TableAlreadyExistsException, NoSuchNamespaceException {
        return createTable(ident, ident, schema, partitions, properties);
    }

    private Table createTable(
            Identifier ident,
            Identifier storedAs,
            StructType schema,
            Transform[] partitions,
            Map<String, String> properties)
            throws TableAlreadyExistsException, NoSuchNamespaceException {
        String qualified = StrataTableNames.qualified(name, ident);
        if (ident.namespace().length == 0) {
            throw StrataErrors.analysis(
                    String.format(
                            "Cannot create table %s: a table lives in a namespace, and none is"
                                    + " selected (USE %s selects the catalog only). Write"
                                    + " %s.<db>.%s, or USE %s.<db> first.",
                            qualified, name, name, ident.name(), name));
        }
        if (ident.namespace().length != 1) {
            throw new NoSuchNamespaceException(ident.namespace());
        }
        if (ident.equals(storedAs)) {
            refuseStagedName("create table " + qualified, ident);
        }
        org.apache.paimon.catalog.Identifier id;
        try {
            id = StrataTableNames.toPaimon(name, storedAs, "create table");
        } catch (NoSuchTableException e) {
            throw new NoSuchNamespaceException(ident.namespace());
        }
        if (properties.containsKey(TableCatalog.PROP_LOCATION)
                && !"true"
                        .equalsIgnoreCase(properties.get(TableCatalog.PROP_IS_MANAGED_LOCATION))) {
            throw new IllegalArgumentException(
                    String.format(
                            "Cannot create table %s with LOCATION '%s': Strata tables live under the catalog's warehouse. "
                                    + "Remove the LOCATION clause.",
                            qualified, properties.get(TableCatalog.PROP_LOCATION)));
        }
        String provider = properties.get(TableCatalog.PROP_PROVIDER);
        if (provider != null
                && !provider.equalsIgnoreCase("paimon")
                && !provider.equalsIgnoreCase("strata")) {
            throw new IllegalArgumentException(
                    String.format(
                            "Cannot create table %s USING %s: catalog %s stores Paimon tables only. "
                                    + "Omit USING, or write USING paimon (from a DataFrame, which"
                                    + " passes spark.sql.sources.default unless told otherwise:"
                                    + " df.writeTo(\"%s\").create(), or"
                                    + " df.write.format(\"paimon\").saveAsTable(\"%s\")).",
                            qualified, provider, name, qualified, qualified));
        }
        Schema paimonSchema;
        try {
            paimonSchema = toPaimonSchema(qualified, schema, partitions, properties);
            LocationOptions.check(
                    "create table " + qualified,
                    name,
                    paimonSchema.options(),
                    Map.of(),
                    allowExternalPaths);
            TableDefinitionChecks.checkCreate(qualified, TableSchema.create(0, paimonSchema));
            paimonSchema = TableDefinitionChecks.withDerivedOptions(paimonSchema);
            CommitSafety.checkCatalog("create table " + qualified, name, paimon);
        } catch (RuntimeException e) {
            if (e.getMessage() != null && e.getMessage().contains(qualified)) {
                throw e;
            }
            throw new IllegalArgumentException(
                    String.format(
                            "Cannot create table %s: %s", qualified, StrataErrors.rootMessage(e)),
                    e);
        }
        try {
            paimon.createTable(id, paimonSchema, false);
        } catch (Catalog.TableAlreadyExistException e) {
            throw new TableAlreadyExistsException(ident);
        } catch (Catalog.DatabaseNotExistException e) {
            throw new NoSuchNamespaceException(ident.namespace());
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(
                    String.format(
                            "Cannot create table %s: %s", qualified, StrataErrors.rootMessage(e)),
                    e);
        }
        try {
            return loadTable(storedAs);
        } catch (NoSuchTableException e) {
            throw new IllegalStateException(
                    "Table " + qualified + " vanished right after it was created", e);
        }
    }

    // -------------------------------------------------------------------------------------------------- staging

    /** CREATE TABLE AS SELECT: the table exists while its rows are written; an abort drops it. */
    @Override
    public StagedTable stageCreate(Identifier ident, TableInfo info)
            throws TableAlreadyExistsException, NoSuchNamespaceException {
        StrataTable table = (StrataTable) createTable(ident, info);
        return new StagedStrataTable(table, () -> {}, () -> dropTable(ident));
    }

    @Override
    public StagedTable stageReplace(Identifier ident, TableInfo info)
            throws NoSuchNamespaceException, NoSuchTableException {
        if (!tableExists(ident)) {
            throw new NoSuchTableException(ident);
        }
        return stageReplacement(ident, info);
    }

    @Override
    public StagedTable stageCreateOrReplace(Identifier ident, TableInfo info)
            throws NoSuchNamespaceException {
        return stageReplacement(ident, info);
    }

    /**
     * REPLACE TABLE [AS SELECT]: the new definition is checked and created, and its rows written,
     * under a staged name while the old table stays as it was (a SELECT of the statement still
     * reads it); the commit drops the old table and renames the staged one into its place, an abort
     * drops the staged one. Without this Spark dropped the old table first, so a refused option or
     * a failing query lost it, and a replace reading its own table wrote no rows.
     */
    private StagedTable stageReplacement(Identifier ident, TableInfo info)
            throws NoSuchNamespaceException {
        Identifier staged =
                Identifier.of(
                        ident.namespace(),
                        stagedPrefix(ident)
                                + java.util
                                        .UUID
                                        .randomUUID()
                                        .toString()
                                        .replace("-", "")
                                        .substring(0, 12));
        String before = changeState(ident);
        StrataTable table;
        try {
            table = (StrataTable) createTable(ident, staged, info);
        } catch (TableAlreadyExistsException e) {
            throw new IllegalStateException(
                    "Cannot replace table "
                            + StrataTableNames.qualified(name, ident)
                            + ": its staged table "
                            + staged.name()
                            + " already exists. Run the statement again.",
                    e);
        }
        return new StagedStrataTable(
                table, () -> replaceWithStaged(ident, staged, before), () -> dropTable(staged));
    }

    /**
     * The table's latest snapshot and schema, as the file system lists them ("none" without a
     * table): rows and schema changes another session commits both change it.
     */
    private String changeState(Identifier ident) {
        try {
            FileStoreTable table = loadPaimonTable(ident);
            Long snapshot = table.snapshotManager().latestSnapshotIdFromFileSystem();
            return String.format(
                    "snapshot %s, schema %s",
                    snapshot == null ? "none" : snapshot,
                    table.schemaManager().latest().map(TableSchema::id).orElse(null));
        } catch (NoSuchTableException e) {
            return "none";
        }
    }

    private void replaceWithStaged(Identifier ident, Identifier staged, String before) {
        // Rows or columns another session committed to the old table meanwhile would be dropped
        // with it.
        String now = changeState(ident);
        if (!before.equals(now)) {
            throw new IllegalStateException(
                    String.format(
                            "Cannot replace table %s: another session changed it while the"
                                    + " replacement was written (latest %s, now %s), and"
                                    + " replacing it would drop that change. Nothing was replaced;"
                                    + " run the statement again.",
                            StrataTableNames.qualified(name, ident), before, now));
        }
        dropTable(ident);
        try {
            renameTable(staged, ident);
        } catch (NoSuchTableException | TableAlreadyExistsException | RuntimeException e) {
            throw new IllegalStateException(
                    String.format(
                            "Cannot replace table %s: the new table and its rows are in %s, but"
                                    + " moving it into place failed: %s. Rename it with ALTER"
                                    + " TABLE %s RENAME TO %s.",
                            StrataTableNames.qualified(name, ident),
                            StrataTableNames.qualified(name, staged),
                            StrataErrors.rootMessage(e),
                            StrataTableNames.qualified(name, staged),
                            StrataTableNames.qualified(name, ident)),
                    e);
        } finally {
            invalidateTable(ident);
            invalidateTable(staged);
        }
    }

    private static Schema toPaimonSchema(
            String qualified,
            StructType schema,
            Transform[] partitions,
            Map<String, String> properties) {
        SparkTypes.checkDefaultCollation(
                qualified, "create table", properties.get(TableCatalog.PROP_COLLATION));
        RowType rowType = SparkTypes.toPaimon(qualified, schema);
        Schema.Builder builder = Schema.newBuilder();
        for (int i = 0; i < rowType.getFieldCount(); i++) {
            DataField field = rowType.getFields().get(i);
            builder.column(
                    field.name(),
                    field.type(),
                    field.description(),
                    ColumnDefaults.forCreate(qualified, schema.fields()[i], field.type()));
        }
        List<String> partitionKeys = new ArrayList<>();
        for (Transform transform : partitions) {
            if (transform.name().equals("bucket") && transform.arguments().length >= 2) {
                // CLUSTERED BY (cols) INTO n BUCKETS reaches the catalog as this transform.
                throw new IllegalArgumentException(
                        String.format(
                                "Cannot create table %s with %s: Paimon buckets rows by table"
                                        + " options, not by a partition transform. Write"
                                        + " TBLPROPERTIES ('bucket' = '%s', 'bucket-key' = '%s')"
                                        + " instead of CLUSTERED BY.",
                                qualified,
                                transform.describe(),
                                transform.arguments()[0].describe(),
                                java.util.Arrays.stream(transform.references())
                                        .map(r -> String.join(".", r.fieldNames()))
                                        .collect(java.util.stream.Collectors.joining(","))));
            }
            if (!(transform instanceof IdentityTransform)) {
                throw new IllegalArgumentException(
                        String.format(
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
        // Readers verify each Parquet page's CRC before decoding it.
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
        List<SchemaChange> schemaChanges =
                new ArrayList<>(SchemaChanges.toPaimon(qualified, current, Arrays.asList(changes)));
        schemaChanges.addAll(
                SchemaChanges.fieldOptionsFollowingRenames(
                        Arrays.asList(changes), current.options()));
        TableSchema proposed;
        try {
            proposed =
                    SchemaManager.generateTableSchema(
                            current,
                            schemaChanges,
                            new LazyField<>(() -> table.latestSnapshot().isPresent()),
                            new LazyField<>(() -> StrataTableNames.toPaimonUnchecked(ident)));
        } catch (Exception e) {
            throw alterRefused(qualified, changes, e);
        }
        LocationOptions.check(
                "alter table " + qualified,
                name,
                proposed.options(),
                current.options(),
                allowExternalPaths);
        TableDefinitionChecks.checkAlter(qualified, proposed, current);
        List<SchemaChange> derived = TableDefinitionChecks.derivedOptionChanges(proposed);
        List<SchemaChange> all = new ArrayList<>(schemaChanges);
        all.addAll(derived);
        if (all.isEmpty()) {
            // Nothing Paimon keeps changed; a new schema id alone would change how rows are read.
            return loadTable(ident);
        }
        try {
            paimon.alterTable(StrataTableNames.toPaimon(name, ident, "alter table"), all, false);
        } catch (Catalog.TableNotExistException e) {
            throw new NoSuchTableException(ident);
        } catch (Catalog.ColumnAlreadyExistException
                | Catalog.ColumnNotExistException
                | RuntimeException e) {
            throw alterRefused(qualified, changes, e);
        }
        return loadTable(ident);
    }

    /** Paimon's refusal of an ALTER TABLE, naming an option whose value it could not parse. */
    private static IllegalArgumentException alterRefused(
            String qualified, TableChange[] changes, Exception e) {
        String unparsable = SchemaChanges.optionValueError(qualified, Arrays.asList(changes));
        return new IllegalArgumentException(
                unparsable != null
                        ? unparsable
                        : String.format(
                                "Cannot alter table %s: %s",
                                qualified, StrataErrors.rootMessage(e)),
                e);
    }

    /** A dropped table's files are deleted anyway. */
    @Override
    public boolean purgeTable(Identifier ident) {
        return dropTable(ident);
    }

    /**
     * Deletes only the table's own directory: Paimon's drop would also delete every {@code
     * data-file.external-paths} root ever named, which other tables may share.
     */
    @Override
    public boolean dropTable(Identifier ident) {
        String action = "drop table " + StrataTableNames.qualified(name, ident);
        org.apache.paimon.catalog.Identifier id;
        FileStoreTable table;
        try {
            id = StrataTableNames.toPaimon(name, ident, "drop table");
            table = loadPaimonTable(ident);
        } catch (NoSuchTableException e) {
            return false;
        }
        if (id.isSystemTable() || id.getBranchName() != null) {
            throw new IllegalArgumentException(
                    String.format(
                            "Cannot %s: it names a system table or branch, not a table. Drop the table %s.%s.%s.",
                            action, name, id.getDatabaseName(), id.getTableName()));
        }
        WarehouseNames.checkOwnDirectory(
                action,
                new Path(warehouse),
                table.location(),
                List.of(id.getDatabaseName() + Catalog.DB_SUFFIX, id.getTableName()));
        try {
            if (!hasExternalPaths(table)) {
                paimon.dropTable(id, false);
                return true;
            }
            table.fileIO().delete(table.location(), true);
            paimon.invalidateTable(id);
            return true;
        } catch (Catalog.TableNotExistException e) {
            return false;
        } catch (java.io.IOException e) {
            throw new IllegalStateException(
                    String.format(
                            "Cannot %s: deleting %s failed: %s. Retry DROP TABLE.",
                            action, table.location(), e.getMessage()),
                    e);
        }
    }

    /** On any schema of any branch. */
    private static boolean hasExternalPaths(FileStoreTable table) {
        List<TableSchema> schemas = new ArrayList<>(table.schemaManager().listAll());
        for (String branch : table.branchManager().branches()) {
            schemas.addAll(table.schemaManager().copyWithBranch(branch).listAll());
        }
        return schemas.stream()
                .anyMatch(
                        s -> {
                            String paths =
                                    s.options().get(CoreOptions.DATA_FILE_EXTERNAL_PATHS.key());
                            return paths != null && !paths.isBlank();
                        });
    }

    @Override
    public void renameTable(Identifier oldIdent, Identifier newIdent)
            throws NoSuchTableException, TableAlreadyExistsException {
        String action = "rename table " + StrataTableNames.qualified(name, oldIdent) + " to";
        String[] ns = newIdent.namespace();
        // Spark passes RENAME TO's name as written, possibly with the catalog in front.
        if (ns.length == 2 && ns[0].equalsIgnoreCase(name)) {
            newIdent = Identifier.of(new String[] {ns[1]}, newIdent.name());
        } else if (ns.length != 1) {
            throw new IllegalArgumentException(
                    String.format(
                            "Cannot %s %s: the new name must be db.table or %s.db.table (a table stays in its"
                                    + " catalog). Write ALTER TABLE %s RENAME TO %s.",
                            action,
                            String.join(".", ns) + "." + newIdent.name(),
                            name,
                            StrataTableNames.qualified(name, oldIdent),
                            (oldIdent.namespace().length == 1 ? oldIdent.namespace()[0] : "db")
                                    + "."
                                    + newIdent.name()));
        }
        refuseStagedName(action + " " + StrataTableNames.qualified(name, newIdent), newIdent);
        try {
            paimon.getDatabase(newIdent.namespace()[0]);
        } catch (Catalog.DatabaseNotExistException e) {
            // Paimon's rename creates the directory, and the namespace with it.
            throw new IllegalArgumentException(
                    String.format(
                            "Cannot %s %s: namespace %s does not exist. Create it first with"
                                    + " CREATE NAMESPACE %s.",
                            action,
                            StrataTableNames.qualified(name, newIdent),
                            StrataTableNames.qualifiedNamespace(name, newIdent.namespace()),
                            StrataTableNames.qualifiedNamespace(name, newIdent.namespace())));
        }
        try {
            paimon.renameTable(
                    StrataTableNames.toPaimon(name, oldIdent, "rename table"),
                    StrataTableNames.toPaimon(name, newIdent, action),
                    false);
        } catch (Catalog.TableNotExistException e) {
            throw new NoSuchTableException(oldIdent);
        } catch (Catalog.TableAlreadyExistException e) {
            throw new TableAlreadyExistsException(newIdent);
        }
    }

    private void checkNamespace(String verb, String[] namespace) {
        WarehouseNames.check(
                verb + " " + StrataTableNames.qualifiedNamespace(name, namespace),
                WarehouseNames.Kind.NAMESPACE,
                namespace[0]);
    }

    // -----------------------------------------------------------------------------------
    // procedures, functions

    @Override
    public UnboundProcedure loadProcedure(Identifier ident) {
        if (ident.namespace().length == 1
                && SYSTEM_NAMESPACE.equalsIgnoreCase(ident.namespace()[0])) {
            UnboundProcedure procedure = StrataProcedures.load(this, ident.name());
            if (procedure != null) {
                return procedure;
            }
        }
        throw StrataErrors.analysis(
                String.format(
                        "Cannot find procedure %s in catalog %s. Available procedures: %s.",
                        StrataTableNames.qualified(name, ident),
                        name,
                        StrataProcedures.names().stream()
                                .map(p -> name + "." + SYSTEM_NAMESPACE + "." + p)
                                .toList()));
    }

    @Override
    public Identifier[] listProcedures(String[] namespace) {
        if (namespace.length == 1 && SYSTEM_NAMESPACE.equalsIgnoreCase(namespace[0])) {
            return StrataProcedures.names().stream()
                    .map(p -> Identifier.of(namespace, p))
                    .toArray(Identifier[]::new);
        }
        return new Identifier[0];
    }

    @Override
    public Identifier[] listFunctions(String[] namespace) throws NoSuchNamespaceException {
        if (namespace.length == 0
                || (namespace.length == 1 && SYSTEM_NAMESPACE.equalsIgnoreCase(namespace[0]))) {
            return StrataFunctions.names().stream()
                    .map(f -> Identifier.of(namespace, f))
                    .toArray(Identifier[]::new);
        }
        return new Identifier[0];
    }

    @Override
    public UnboundFunction loadFunction(Identifier ident) throws NoSuchFunctionException {
        boolean systemNamespace =
                ident.namespace().length == 0
                        || (ident.namespace().length == 1
                                && SYSTEM_NAMESPACE.equalsIgnoreCase(ident.namespace()[0]));
        UnboundFunction function = systemNamespace ? StrataFunctions.load(ident.name()) : null;
        if (function == null) {
            throw new NoSuchFunctionException(ident);
        }
        return function;
    }
}
