package dev.strata.shredding.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.strata.shredding.allocate.PlacementPolicy;
import dev.strata.shredding.io.DamagedFileException;
import dev.strata.shredding.parquet.FileRoundTrip;
import dev.strata.shredding.parquet.PaimonFiles;
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
import org.apache.paimon.fs.Path;
import org.apache.paimon.fs.PositionOutputStream;
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
import org.apache.parquet.schema.Type;
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
        DataType valueType =
                values.equals("INT") ? DataTypes.INT() : DataTypes.ARRAY(DataTypes.INT());
        RowType rowType =
                RowType.of(
                        new DataType[] {
                            DataTypes.BIGINT().notNull(),
                            DataTypes.MAP(DataTypes.STRING().notNull(), valueType)
                        },
                        new String[] {"id", "m"});
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
     * Writes ROWS maps of 6 of 20 keys with K = 4 (keys in columns and in the overflow), placed by
     * LRU without ownership segments, so a key's reads need the mapping; returns a key of row
     * BAD_ROW.
     */
    private static String write(java.nio.file.Path file, RowType rowType, boolean flat)
            throws IOException {
        Random random = TestSeeds.random("fieldMappingRule");
        Path path = new Path(file.toUri().toString());
        Map<String, ShreddedParquetWriter.ColumnSpec> specs = new LinkedHashMap<>();
        specs.put("m", new ShreddedParquetWriter.ColumnSpec(K, PlacementPolicy.LRU, 0));
        String badKey = null;
        try (PositionOutputStream out = FileRoundTrip.IO.newOutputStream(path, true)) {
            ShreddedParquetWriter w =
                    new ShreddedParquetWriter(
                            new PaimonFiles.StreamOutputFile(out, path.toString()),
                            rowType,
                            specs,
                            new ShreddedParquetWriter.Settings());
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
                w.write(GenericRow.of((long) i, new GenericMap(map)));
            }
            w.close();
        }
        return badKey;
    }

    /** Reads {@code key} through the columnar path, as Spark's scan does. */
    private static void readColumnar(Path path, RowType rowType, String key) throws IOException {
        try (ShreddedColumns columns =
                new ShreddedColumns(
                        PaimonFiles.inputFile(
                                FileRoundTrip.IO, path, FileRoundTrip.IO.getFileSize(path)),
                        path.toString(),
                        rowType,
                        Map.of("m", List.of(key)),
                        null,
                        true)) {
            while (columns.nextWindow() > 0) {
                // Every window is decoded; the damaged row's must fail.
            }
        }
    }

    /**
     * Copies {@code from} with parquet-mr (same schema and footer metadata, one row group), giving
     * row BAD_ROW's map the {@code damage}d mapping.
     */
    private static void copyDamaging(
            java.nio.file.Path from, java.nio.file.Path to, String damage, boolean dictionary)
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
        rows.set(BAD_ROW, damaged(rows.get(BAD_ROW), schema, damage));
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
        Group out = new SimpleGroup(schema);
        out.add(0, row.getLong(0, 0));
        GroupType mapType = schema.getType("m").asGroupType();
        Group map = row.getGroup(1, 0);
        Group m = out.addGroup(1);
        for (int f = 0; f < mapType.getFieldCount(); f++) {
            Type t = mapType.getType(f);
            if (t.getName().equals("__field_mapping")) {
                if (damage.equals("null")) {
                    continue;
                }
                Group list = map.getGroup(f, 0);
                Group mapping = m.addGroup(f);
                int n = list.getFieldRepetitionCount(0);
                assertThat(n).isEqualTo(K);
                for (int c = 0; c < (damage.equals("short") ? K - 1 : K); c++) {
                    Group element = mapping.addGroup(0);
                    if (!(damage.equals("null-id") && c == 0)) {
                        element.add(0, list.getGroup(0, c).getInteger(0, 0));
                    }
                }
                continue;
            }
            for (int j = 0; j < map.getFieldRepetitionCount(f); j++) {
                if (t.isPrimitive()) {
                    m.add(f, map.getInteger(f, j));
                } else {
                    m.add(f, map.getGroup(f, j));
                }
            }
        }
        return out;
    }
}
