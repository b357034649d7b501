package dev.strata.shredding.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.strata.shredding.allocate.PlacementPolicy;
import dev.strata.shredding.io.DamagedFileException;
import dev.strata.shredding.layout.GroupPlacement;
import dev.strata.shredding.layout.ShreddedColumnMeta;
import dev.strata.shredding.layout.ShreddingFooter;
import dev.strata.shredding.parquet.FileRoundTrip;
import dev.strata.shredding.parquet.ShreddedParquetWriter;
import dev.strata.testing.TestSeeds;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericArray;
import org.apache.paimon.data.GenericMap;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalArray;
import org.apache.paimon.data.InternalMap;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.fs.Path;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowType;
import org.apache.parquet.column.ParquetProperties.WriterVersion;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroup;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetReader;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.example.GroupReadSupport;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.MessageType;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every reader of a shredded map follows one rule for a row's {@code __field_mapping}: a map that
 * is not NULL holds exactly K ids. A file written by Strata is copied by parquet-mr with one row's
 * mapping damaged (NULL, one id short, a NULL id), with dictionary ids (read by the probe) and with
 * DELTA ids (decoded in full); whole maps and selected keys, of flat and of nested values, must all
 * fail naming the file, as Paimon's reader does, rather than answer from the damaged row.
 */
class FieldMappingRuleTest {

    private static final int K = 4;
    private static final int ROWS = 400;
    private static final int BAD_ROW = 217;

    @TempDir java.nio.file.Path dir;

    @ParameterizedTest(name = "{0} values, mapping {1}, dictionary ids {2}")
    @CsvSource({
        "INT, null, true",
        "INT, short, true",
        "INT, null-id, true",
        "INT, null, false",
        "INT, short, false",
        "INT, null-id, false",
        "ARRAY, null, true",
        "ARRAY, short, false",
        "ARRAY, null-id, true"
    })
    void aDamagedMappingFailsEveryReadNamingTheFile(
            String values, String damage, boolean dictionary) throws Exception {
        RowType rowType = rowType(values.equals("INT"));
        java.nio.file.Path valid = dir.resolve("valid.parquet");
        String badKey = write(valid, rowType, values.equals("INT"));
        java.nio.file.Path damaged = dir.resolve("damaged.parquet");
        copyDamaging(valid, damaged, damage, dictionary);

        // The copy reads back like the original everywhere but in the damaged row.
        Path copy = new Path(damaged.toUri().toString());
        assertThat(
                        FileRoundTrip.read(
                                        new Path(valid.toUri().toString()), rowType, Map.of(), null)
                                .rows)
                .hasSize(ROWS);
        for (Map<String, List<String>> selected :
                List.of(Map.<String, List<String>>of(), Map.of("m", List.of(badKey)))) {
            assertThatThrownBy(() -> FileRoundTrip.read(copy, rowType, selected, null))
                    .as("read of %s with keys %s", damage, selected)
                    .isInstanceOf(DamagedFileException.class)
                    .hasMessageContaining(copy.toString())
                    .hasMessageContaining("does not hold exactly K=" + K + " ids");
        }
        if (values.equals("INT")) {
            assertThatThrownBy(() -> readColumnar(copy, rowType, badKey))
                    .as("columnar read of %s", damage)
                    .isInstanceOf(DamagedFileException.class)
                    .hasMessageContaining(copy.toString())
                    .hasMessageContaining("does not hold exactly K=" + K + " ids");
        }
    }

    /**
     * Foreign files may name a key twice in a row (Paimon's writer never does, but its readers
     * define the answer): a whole map lists every entry, columns in order then the overflow; a
     * lookup takes the first of the key's columns S(k) that holds it, else the overflow. Rows are
     * edited so that a key also sits in an earlier or later column of S(k) than where it was
     * written, or in a column besides the overflow; every read path must answer as an oracle that
     * applies the rule to the raw rows.
     */
    @ParameterizedTest(name = "{0} values, dictionary ids {1}")
    @CsvSource({"INT, true", "INT, false", "ARRAY, true", "ARRAY, false"})
    void aKeyNamedTwiceInARowIsReadByTheRuleOnEveryPath(String values, boolean dictionary)
            throws Exception {
        boolean flat = values.equals("INT");
        RowType rowType = rowType(flat);
        java.nio.file.Path valid = dir.resolve("valid.parquet");
        write(valid, rowType, flat);
        ShreddedColumnMeta meta =
                ShreddingFooter.decode(FileRoundTrip.footer(valid), "m", valid.toString());
        GroupPlacement placement = meta.placement(0);
        java.util.function.IntFunction<int[]> columnsOf =
                id -> placement != null ? placement.columnsOf(id) : meta.columnsOf(id);
        Random random = TestSeeds.random("fieldMappingRule.duplicates");
        List<Group> edited = new ArrayList<>();
        java.nio.file.Path copy = dir.resolve("duplicates.parquet");
        copy(
                valid,
                copy,
                dictionary,
                (i, row, schema) -> {
                    Group out = random.nextInt(3) == 0 ? namedTwice(row, schema, columnsOf) : row;
                    edited.add(out);
                    return out;
                });
        Path path = new Path(copy.toUri().toString());
        List<InternalRow> whole = FileRoundTrip.read(path, rowType, Map.of(), null).rows;
        assertThat(whole).hasSize(ROWS);
        int duplicated = 0;
        for (int r = 0; r < ROWS; r++) {
            List<String> expected = entries(edited.get(r), meta);
            List<String> actual = new ArrayList<>();
            InternalMap m = whole.get(r).getMap(1);
            for (int e = 0; e < m.size(); e++) {
                actual.add(m.keyArray().getString(e) + "=" + show(m.valueArray(), e, flat));
            }
            assertThat(actual).as("whole map of row %d", r).isEqualTo(expected);
            duplicated +=
                    expected.stream().map(x -> x.substring(0, x.indexOf('='))).distinct().count()
                                    < expected.size()
                            ? 1
                            : 0;
        }
        assertThat(duplicated).as("rows naming a key twice").isGreaterThan(10);
        for (String key : meta.keys()) {
            int id = meta.idOf(key);
            List<InternalRow> selected =
                    FileRoundTrip.read(path, rowType, Map.of("m", List.of(key)), null).rows;
            for (int r = 0; r < ROWS; r++) {
                String expected = lookup(edited.get(r), meta, id, columnsOf.apply(id));
                InternalMap m = selected.get(r).getMap(1);
                String actual = m.size() == 0 ? null : show(m.valueArray(), 0, flat);
                assertThat(actual).as("m['%s'] of row %d, row path", key, r).isEqualTo(expected);
            }
            if (flat) {
                List<String> columnar = readColumnar(path, rowType, key);
                for (int r = 0; r < ROWS; r++) {
                    assertThat(columnar.get(r))
                            .as("m['%s'] of row %d, columnar path", key, r)
                            .isEqualTo(lookup(edited.get(r), meta, id, columnsOf.apply(id)));
                }
            }
        }
    }

    /**
     * Row {@code row} with one key of its map also named at another column of its S(k): an earlier
     * or later one than where it sits, or besides the overflow entry naming it (that column's
     * former key, if any, leaves the row's columns).
     */
    private static Group namedTwice(
            Group row, MessageType schema, java.util.function.IntFunction<int[]> columnsOf) {
        if (row.getFieldRepetitionCount(1) == 0) {
            return row;
        }
        Group map = row.getGroup(1, 0);
        int[] mapping = mappingOf(map);
        List<Integer> present = new ArrayList<>();
        for (int id : mapping) {
            if (id >= 0) {
                present.add(id);
            }
        }
        for (int id : overflowIds(map)) {
            present.add(id);
        }
        for (int id : present) {
            for (int c : columnsOf.apply(id)) {
                if (mapping[c] != id) {
                    Integer[] ids = new Integer[mapping.length];
                    for (int i = 0; i < ids.length; i++) {
                        ids[i] = i == c ? id : mapping[i];
                    }
                    return withMapping(row, schema, ids);
                }
            }
        }
        return row;
    }

    private static int[] mappingOf(Group map) {
        Group list = map.getGroup(0, 0);
        int[] ids = new int[list.getFieldRepetitionCount(0)];
        for (int c = 0; c < ids.length; c++) {
            ids[c] = list.getGroup(0, c).getInteger(0, 0);
        }
        return ids;
    }

    private static int overflowField(Group map) {
        GroupType t = map.getType();
        return t.containsField("__overflow") ? t.getFieldIndex("__overflow") : -1;
    }

    private static List<Integer> overflowIds(Group map) {
        List<Integer> ids = new ArrayList<>();
        int f = overflowField(map);
        if (f >= 0 && map.getFieldRepetitionCount(f) > 0) {
            Group kv = map.getGroup(f, 0);
            for (int e = 0; e < kv.getFieldRepetitionCount(0); e++) {
                ids.add(kv.getGroup(0, e).getInteger(0, 0));
            }
        }
        return ids;
    }

    /**
     * Row {@code row} with its mapping replaced by {@code ids} (null: a NULL mapping; a null
     * element: a NULL id).
     */
    private static Group withMapping(Group row, MessageType schema, Integer[] ids) {
        Group out = new SimpleGroup(schema);
        out.add(0, row.getLong(0, 0));
        GroupType mapType = schema.getType("m").asGroupType();
        Group map = row.getGroup(1, 0);
        Group m = out.addGroup(1);
        for (int f = 0; f < mapType.getFieldCount(); f++) {
            if (mapType.getType(f).getName().equals("__field_mapping")) {
                if (ids != null) {
                    Group mapping = m.addGroup(f);
                    for (Integer id : ids) {
                        Group element = mapping.addGroup(0);
                        if (id != null) {
                            element.add(0, id);
                        }
                    }
                }
                continue;
            }
            for (int j = 0; j < map.getFieldRepetitionCount(f); j++) {
                if (mapType.getType(f).isPrimitive()) {
                    m.add(f, map.getInteger(f, j));
                } else {
                    m.add(f, map.getGroup(f, j));
                }
            }
        }
        return out;
    }

    /**
     * The rule's whole map of a raw row: "key=value" per entry, columns in order, then overflow.
     */
    private static List<String> entries(Group row, ShreddedColumnMeta meta) {
        List<String> out = new ArrayList<>();
        if (row.getFieldRepetitionCount(1) == 0) {
            return out;
        }
        Group map = row.getGroup(1, 0);
        int[] mapping = mappingOf(map);
        for (int c = 0; c < mapping.length; c++) {
            if (mapping[c] >= 0 && mapping[c] < meta.keys().size()) {
                out.add(meta.keys().get(mapping[c]) + "=" + rawValue(map, "__col_" + c, -1));
            }
        }
        List<Integer> ovf = overflowIds(map);
        for (int e = 0; e < ovf.size(); e++) {
            if (ovf.get(e) >= 0 && ovf.get(e) < meta.keys().size()) {
                out.add(meta.keys().get(ovf.get(e)) + "=" + rawValue(map, "__overflow", e));
            }
        }
        return out;
    }

    /** The rule's value of key {@code id} in a raw row: first of S(k) holding it, else overflow. */
    private static String lookup(Group row, ShreddedColumnMeta meta, int id, int[] columns) {
        if (row.getFieldRepetitionCount(1) == 0) {
            return null;
        }
        Group map = row.getGroup(1, 0);
        int[] mapping = mappingOf(map);
        int[] sorted = columns.clone();
        java.util.Arrays.sort(sorted);
        for (int c : sorted) {
            if (mapping[c] == id) {
                return rawValue(map, "__col_" + c, -1);
            }
        }
        List<Integer> ovf = overflowIds(map);
        for (int e = 0; e < ovf.size(); e++) {
            if (ovf.get(e) == id) {
                return rawValue(map, "__overflow", e);
            }
        }
        return null;
    }

    /**
     * The value in field {@code field} of a raw map group (entry {@code e} of the overflow), as
     * {@link #show} prints it; null when NULL.
     */
    private static String rawValue(Group map, String field, int e) {
        Group holder = map;
        int f = map.getType().getFieldIndex(field);
        if (e >= 0) {
            Group kv = map.getGroup(f, 0).getGroup(0, e);
            holder = kv;
            f = 1;
        }
        if (holder.getFieldRepetitionCount(f) == 0) {
            return null;
        }
        if (holder.getType().getType(f).isPrimitive()) {
            return Integer.toString(holder.getInteger(f, 0));
        }
        Group list = holder.getGroup(f, 0);
        List<String> items = new ArrayList<>();
        for (int i = 0; i < list.getFieldRepetitionCount(0); i++) {
            Group element = list.getGroup(0, i);
            items.add(
                    element.getFieldRepetitionCount(0) == 0
                            ? "null"
                            : Integer.toString(element.getInteger(0, 0)));
        }
        return items.toString();
    }

    private static String show(InternalArray values, int e, boolean flat) {
        if (values.isNullAt(e)) {
            return null;
        }
        if (flat) {
            return Integer.toString(values.getInt(e));
        }
        InternalArray a = values.getArray(e);
        List<String> items = new ArrayList<>();
        for (int i = 0; i < a.size(); i++) {
            items.add(a.isNullAt(i) ? "null" : Integer.toString(a.getInt(i)));
        }
        return items.toString();
    }

    /**
     * Writes ROWS maps of 6 of 20 keys with K = 4 (keys in columns and in the overflow), placed by
     * LRU without ownership segments, so a key's reads need the mapping; returns a key of row
     * BAD_ROW.
     */
    private static String write(java.nio.file.Path file, RowType rowType, boolean flat)
            throws IOException {
        Random random = TestSeeds.random("fieldMappingRule");
        Map<String, ShreddedParquetWriter.ColumnSpec> specs = new LinkedHashMap<>();
        specs.put("m", new ShreddedParquetWriter.ColumnSpec(K, PlacementPolicy.LRU, 0));
        List<InternalRow> rows = new ArrayList<>();
        String badKey = null;
        for (int i = 0; i < ROWS; i++) {
            Map<Object, Object> map = new LinkedHashMap<>();
            while (map.size() < 6) {
                int key = random.nextInt(20);
                int v = random.nextInt(1000);
                map.put(
                        BinaryString.fromString("k" + key),
                        flat ? (Object) v : new GenericArray(new int[] {v, key}));
            }
            if (i == BAD_ROW) {
                badKey = map.keySet().iterator().next().toString();
            }
            rows.add(GenericRow.of((long) i, new GenericMap(map)));
        }
        FileRoundTrip.write(
                new Path(file.toUri().toString()),
                rowType,
                specs,
                new ShreddedParquetWriter.Settings(),
                rows,
                r -> r);
        return badKey;
    }

    /** (id BIGINT, m MAP<STRING, INT or ARRAY<INT>>). */
    private static RowType rowType(boolean flat) {
        DataType valueType = flat ? DataTypes.INT() : DataTypes.ARRAY(DataTypes.INT());
        return RowType.of(
                new DataType[] {
                    DataTypes.BIGINT().notNull(),
                    DataTypes.MAP(DataTypes.STRING().notNull(), valueType)
                },
                new String[] {"id", "m"});
    }

    /**
     * {@code m[key]} (INT values) of every row read through the columnar path, as Spark's scan
     * does; null where absent or NULL.
     */
    private static List<String> readColumnar(Path path, RowType rowType, String key)
            throws IOException {
        List<String> values = new ArrayList<>();
        KeyReads.read(
                path,
                rowType,
                key,
                null,
                (id, m, r) ->
                        values.add(m.isNullValue(0, r) ? null : Integer.toString(m.getInt(0, r))));
        return values;
    }

    /** Copies {@code from} giving row BAD_ROW's map the {@code damage}d mapping. */
    private static void copyDamaging(
            java.nio.file.Path from, java.nio.file.Path to, String damage, boolean dictionary)
            throws IOException {
        copy(
                from,
                to,
                dictionary,
                (i, row, schema) -> i == BAD_ROW ? damaged(row, schema, damage) : row);
    }

    /** Rewrites row {@code index} of a copy: returns the row to write in its place. */
    private interface RowEdit {
        Group apply(int index, Group row, MessageType schema);
    }

    /**
     * Copies {@code from} with parquet-mr (same schema and footer metadata, one row group), each
     * row passed through {@code edit}; dictionary ids are probed by the reader, DELTA ids decoded
     * in full.
     */
    private static void copy(
            java.nio.file.Path from, java.nio.file.Path to, boolean dictionary, RowEdit edit)
            throws IOException {
        Configuration conf = new Configuration();
        org.apache.hadoop.fs.Path src = new org.apache.hadoop.fs.Path(from.toUri());
        ParquetMetadata footer;
        try (ParquetFileReader r = ParquetFileReader.open(HadoopInputFile.fromPath(src, conf))) {
            footer = r.getFooter();
        }
        MessageType schema = footer.getFileMetaData().getSchema();
        List<Group> rows = new ArrayList<>();
        try (ParquetReader<Group> reader =
                ParquetReader.builder(new GroupReadSupport(), src).withConf(conf).build()) {
            Group g;
            while ((g = reader.read()) != null) {
                rows.add(g);
            }
        }
        assertThat(rows).hasSize(ROWS);
        for (int i = 0; i < rows.size(); i++) {
            rows.set(i, edit.apply(i, rows.get(i), schema));
        }
        try (ParquetWriter<Group> writer =
                ExampleParquetWriter.builder(new org.apache.hadoop.fs.Path(to.toUri()))
                        .withType(schema)
                        .withConf(conf)
                        .withExtraMetaData(footer.getFileMetaData().getKeyValueMetaData())
                        .withWriterVersion(
                                dictionary ? WriterVersion.PARQUET_1_0 : WriterVersion.PARQUET_2_0)
                        .withDictionaryEncoding(dictionary)
                        .build()) {
            for (Group g : rows) {
                writer.write(g);
            }
        }
    }

    /** Row {@code row} with its map's mapping replaced as {@code damage} says. */
    private static Group damaged(Group row, MessageType schema, String damage) {
        int[] ids = mappingOf(row.getGroup(1, 0));
        assertThat(ids).hasSize(K);
        if (damage.equals("null")) {
            return withMapping(row, schema, null);
        }
        Integer[] damagedIds = new Integer[damage.equals("short") ? K - 1 : K];
        for (int c = 0; c < damagedIds.length; c++) {
            damagedIds[c] = damage.equals("null-id") && c == 0 ? null : ids[c];
        }
        return withMapping(row, schema, damagedIds);
    }
}
