package dev.strata.shredding.format;

import dev.strata.shredding.ShreddingOptions;
import dev.strata.shredding.TestMaps;
import dev.strata.testing.maps.GeneratedMap;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalMap;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.disk.IOManager;
import org.apache.paimon.options.Options;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.schema.SchemaChange;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.BatchTableWrite;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.apache.paimon.table.source.DataSplit;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.table.source.Split;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowType;

/** Real Paimon tables in a temporary warehouse, written and read through Paimon's Java API. */
final class PaimonTables implements AutoCloseable {

    enum Kind {
        APPEND,
        PRIMARY_KEY,
        PRIMARY_KEY_DV
    }

    static final RowType ROW_TYPE =
            RowType.of(
                    new org.apache.paimon.types.DataType[] {
                        DataTypes.BIGINT().notNull(), TestMaps.MAP_STRING_DOUBLE
                    },
                    new String[] {"id", "m"});

    final Catalog catalog;
    private final String tmp;

    PaimonTables(java.nio.file.Path dir) throws Exception {
        Options options = new Options();
        options.set("warehouse", dir.resolve("warehouse").toUri().toString());
        this.catalog = CatalogFactory.createCatalog(CatalogContext.create(options));
        catalog.createDatabase("db", true);
        this.tmp = dir.resolve("io").toString();
        new java.io.File(tmp).mkdirs();
    }

    static Map<String, String> layoutOptions(boolean shredded, int maxColumns, String policy) {
        Map<String, String> o = new HashMap<>();
        if (shredded) {
            o.put(ShreddingOptions.layoutKey("m"), "shared-shredding");
            o.put(ShreddingOptions.maxColumnsKey("m"), Integer.toString(maxColumns));
            o.put(ShreddingOptions.policyKey("m", policy), policy);
        }
        return o;
    }

    FileStoreTable create(
            String name, Kind kind, Map<String, String> layout, Map<String, String> extra)
            throws Exception {
        Schema.Builder b =
                Schema.newBuilder()
                        .column("id", DataTypes.BIGINT().notNull())
                        .column("m", TestMaps.MAP_STRING_DOUBLE);
        Map<String, String> options = new LinkedHashMap<>(layout);
        options.put("bucket", "2");
        if (kind == Kind.APPEND) {
            options.put("bucket-key", "id");
        } else {
            b.primaryKey("id");
        }
        if (kind == Kind.PRIMARY_KEY_DV) {
            options.put("deletion-vectors.enabled", "true");
        }
        options.putAll(extra);
        ShreddingOptions.validate("db." + name, ROW_TYPE, options);
        b.options(options);
        catalog.createTable(Identifier.create("db", name), b.build(), false);
        return table(name);
    }

    FileStoreTable table(String name) throws Exception {
        return (FileStoreTable) catalog.getTable(Identifier.create("db", name));
    }

    /** Sets options through the catalog (validated first, as the Strata catalog does). */
    FileStoreTable alter(String name, Map<String, String> changes) throws Exception {
        FileStoreTable t = table(name);
        Map<String, String> merged = new HashMap<>(t.options());
        merged.putAll(changes);
        ShreddingOptions.validate("db." + name, ROW_TYPE, merged);
        List<SchemaChange> sc = new ArrayList<>();
        for (Map.Entry<String, String> e : merged.entrySet()) {
            if (!e.getValue().equals(t.options().get(e.getKey()))) {
                sc.add(SchemaChange.setOption(e.getKey(), e.getValue()));
            }
        }
        catalog.alterTable(Identifier.create("db", name), sc, false);
        return table(name);
    }

    void write(FileStoreTable table, List<Long> ids, List<GeneratedMap> maps) throws Exception {
        BatchWriteBuilder wb = table.newBatchWriteBuilder();
        try (BatchTableWrite w = wb.newWrite().withIOManager(IOManager.create(tmp));
                BatchTableCommit c = wb.newCommit()) {
            for (int i = 0; i < ids.size(); i++) {
                w.write(GenericRow.of(ids.get(i), TestMaps.toPaimon(maps.get(i))));
            }
            c.commit(w.prepareCommit());
        }
    }

    void compactAll(FileStoreTable table) throws Exception {
        compact(table, true);
    }

    void compact(FileStoreTable table, boolean full) throws Exception {
        BatchWriteBuilder wb = table.newBatchWriteBuilder();
        try (BatchTableWrite w = wb.newWrite().withIOManager(IOManager.create(tmp));
                BatchTableCommit c = wb.newCommit()) {
            for (int bucket = 0; bucket < 2; bucket++) {
                w.compact(BinaryRow.EMPTY_ROW, bucket, full);
            }
            c.commit(w.prepareCommit());
        }
    }

    /**
     * id → sorted "key=value" entries (null for a NULL map); for append tables ids are unique per
     * test.
     */
    static Map<Long, List<String>> readAll(FileStoreTable table) throws Exception {
        Map<Long, List<String>> out = new TreeMap<>();
        ReadBuilder rb = table.newReadBuilder();
        List<Split> splits = rb.newScan().plan().splits();
        try (RecordReader<InternalRow> r = rb.newRead().createReader(splits)) {
            r.forEachRemaining(
                    row -> {
                        InternalMap m = row.isNullAt(1) ? null : row.getMap(1);
                        List<String> e = TestMaps.entries(m);
                        if (e != null) {
                            Collections.sort(e);
                        }
                        List<String> prev = out.put(row.getLong(0), e);
                        if (prev != null) {
                            throw new IllegalStateException("duplicate id " + row.getLong(0));
                        }
                    });
        }
        return out;
    }

    /** The data files of the current snapshot, as extension → count. */
    /**
     * The current snapshot's data files counted by "extension:layout", layout {@code shredded} when
     * the file's own schema stores a column in the shared-shredding layout, else {@code plain}.
     */
    static Map<String, Integer> fileLayouts(FileStoreTable table) throws java.io.IOException {
        Map<String, Integer> out = new TreeMap<>();
        for (Split s : table.newReadBuilder().newScan().plan().splits()) {
            DataSplit d = (DataSplit) s;
            for (org.apache.paimon.io.DataFileMeta f : d.dataFiles()) {
                String ext = f.fileName().substring(f.fileName().lastIndexOf('.') + 1);
                org.apache.paimon.fs.Path p =
                        new org.apache.paimon.fs.Path(
                                table.location(), "bucket-" + d.bucket() + "/" + f.fileName());
                boolean shredded = false;
                try (org.apache.parquet.hadoop.ParquetFileReader r =
                        org.apache.parquet.hadoop.ParquetFileReader.open(
                                dev.strata.shredding.parquet.PaimonFiles.inputFile(
                                        table.fileIO(), p, f.fileSize()),
                                dev.strata.shredding.parquet.PaimonFiles.readOptions())) {
                    for (org.apache.parquet.schema.Type t :
                            r.getFooter().getFileMetaData().getSchema().getFields()) {
                        shredded |= dev.strata.shredding.parquet.ParquetSchemas.looksShredded(t);
                    }
                }
                out.merge(ext + (shredded ? ":shredded" : ":plain"), 1, Integer::sum);
            }
        }
        return out;
    }

    /** How many deletion files the current snapshot's splits carry. */
    static long deletionFiles(FileStoreTable table) {
        long n = 0;
        for (Split s : table.newReadBuilder().newScan().plan().splits()) {
            n +=
                    ((DataSplit) s)
                            .deletionFiles()
                            .map(l -> l.stream().filter(java.util.Objects::nonNull).count())
                            .orElse(0L);
        }
        return n;
    }

    /** Paths of the current snapshot's data files with the given extension. */
    static List<org.apache.paimon.fs.Path> dataFiles(FileStoreTable table, String extension) {
        List<org.apache.paimon.fs.Path> out = new ArrayList<>();
        for (Split s : table.newReadBuilder().newScan().plan().splits()) {
            DataSplit d = (DataSplit) s;
            for (org.apache.paimon.io.DataFileMeta f : d.dataFiles()) {
                if (f.fileName().endsWith("." + extension)) {
                    out.add(
                            new org.apache.paimon.fs.Path(
                                    table.location(), "bucket-" + d.bucket() + "/" + f.fileName()));
                }
            }
        }
        return out;
    }

    @Override
    public void close() throws Exception {
        catalog.close();
    }
}
