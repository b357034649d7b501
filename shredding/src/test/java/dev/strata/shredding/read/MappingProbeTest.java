package dev.strata.shredding.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.strata.testing.TestSeeds;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ParquetProperties.WriterVersion;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link MappingProbe} against the ids that were written: files of the {@code __field_mapping}
 * shape written by parquet-mr itself (V1 and V2 pages, dictionary ids and PLAIN ids, small pages,
 * several row groups; V2 pages without a dictionary use DELTA_BINARY_PACKED, which the probe leaves
 * to the full decode), with NULL maps, probed at random column sets in windows of random sizes; and
 * a row with the wrong number of ids, a NULL mapping among them, fails naming the file.
 */
class MappingProbeTest {

    private static final MessageType SCHEMA =
            MessageTypeParser.parseMessageType(
                    "message t {"
                            + " optional group m { optional group __field_mapping (LIST) {"
                            + " repeated group list { optional int32 element; } } } }");
    private static final int K = 24;

    @TempDir Path dir;

    /** Writes rows of K ids (null: a NULL map; an empty array: a NULL mapping in a map). */
    private org.apache.hadoop.fs.Path write(
            List<int[]> rows, WriterVersion version, boolean dictionary) throws IOException {
        org.apache.hadoop.fs.Path file =
                new org.apache.hadoop.fs.Path(
                        dir.resolve("m-" + version + dictionary + ".parquet").toUri());
        SimpleGroupFactory groups = new SimpleGroupFactory(SCHEMA);
        try (ParquetWriter<Group> writer =
                ExampleParquetWriter.builder(file)
                        .withType(SCHEMA)
                        .withConf(new Configuration())
                        .withWriterVersion(version)
                        .withDictionaryEncoding(dictionary)
                        .withPageSize(1024)
                        .withPageRowCountLimit(70)
                        .withRowGroupSize(32 * 1024L)
                        .withCompressionCodec(CompressionCodecName.SNAPPY)
                        .build()) {
            for (int[] ids : rows) {
                Group g = groups.newGroup();
                if (ids != null) {
                    Group m = g.addGroup("m");
                    if (ids.length > 0) {
                        Group mapping = m.addGroup("__field_mapping");
                        for (int id : ids) {
                            mapping.addGroup("list").append("element", id);
                        }
                    }
                }
                writer.write(g);
            }
        }
        return file;
    }

    @ParameterizedTest(name = "{0} dictionary={1}")
    @CsvSource({
        "PARQUET_1_0, true",
        "PARQUET_1_0, false",
        "PARQUET_2_0, true",
        "PARQUET_2_0, false"
    })
    void probedIdsAreTheWrittenOnes(WriterVersion version, boolean dictionary) throws IOException {
        long seed = TestSeeds.seed("mappingProbe");
        Random random = new Random(seed);
        List<int[]> rows = new ArrayList<>();
        for (int i = 0; i < 4000; i++) {
            if (random.nextInt(40) == 0) {
                rows.add(null);
            } else {
                int[] ids = new int[K];
                for (int c = 0; c < K; c++) {
                    // Runs of equal ids (RLE) and varied ones (bit-packed), -1 for empty slots.
                    ids[c] =
                            random.nextInt(3) == 0
                                    ? c
                                    : random.nextInt(dictionary ? 300 : 1 << 20) - 1;
                }
                rows.add(ids);
            }
        }
        org.apache.hadoop.fs.Path file = write(rows, version, dictionary);
        ColumnDescriptor d = SCHEMA.getColumns().get(0);
        int row = 0;
        int rowGroups = 0;
        try (ParquetFileReader reader =
                ParquetFileReader.open(HadoopInputFile.fromPath(file, new Configuration()))) {
            PageReadStore pages;
            while ((pages = reader.readNextRowGroup()) != null) {
                TreeSet<Integer> set = new TreeSet<>();
                // A few positions, or up to all K (a key spread over every column).
                int draws =
                        random.nextBoolean() ? 1 + random.nextInt(5) : 1 + random.nextInt(3 * K);
                for (int i = draws; i > 0; i--) {
                    set.add(random.nextInt(K));
                }
                int[] positions = set.stream().mapToInt(Integer::intValue).toArray();
                boolean probeable =
                        MappingProbe.canProbe(
                                reader.getRowGroups().get(rowGroups).getColumns().get(0), K);
                if (version == WriterVersion.PARQUET_2_0 && !dictionary) {
                    // V2 pages without a dictionary write DELTA_BINARY_PACKED ids: decoded in full
                    // instead.
                    assertThat(probeable).as("chunk encodings").isFalse();
                    return;
                }
                assertThat(probeable).as("chunk encodings").isTrue();
                rowGroups++;
                // Every entry, or the ids of a random set (shorter than the largest id: ids past
                // its end are not wanted).
                int[] wanted = null;
                int choice = random.nextInt(3);
                if (choice > 0) {
                    wanted = new int[dictionary ? 250 : (1 << 20) - 1000];
                    Arrays.fill(wanted, -1);
                    if (choice == 1) { // many ids: compared value by value
                        for (int id = 0; id < wanted.length; id++) {
                            wanted[id] = random.nextInt(3) == 0 ? 0 : -1;
                        }
                    } else { // up to four ids, as a query's keys: compared a word at a time
                        for (int t = 1 + random.nextInt(4); t > 0; t--) {
                            wanted[random.nextInt(dictionary ? 250 : 300)] = 0;
                        }
                    }
                }
                MappingProbe probe =
                        new MappingProbe(
                                pages.getPageReader(d), d, file.toString(), K, positions, wanted);
                int groupRows = Math.toIntExact(pages.getRowCount());
                for (int done = 0; done < groupRows; ) {
                    int n = Math.min(groupRows - done, 1 + random.nextInt(300));
                    probe.next(n);
                    List<String> expected = new ArrayList<>();
                    for (int r = 0; r < n; r++) {
                        int[] ids = rows.get(row + r);
                        assertThat(probe.firstDef[r])
                                .as(
                                        "row %d (%s)",
                                        row + r, TestSeeds.describe("mappingProbe", seed))
                                .isEqualTo(ids == null ? 0 : 4);
                        for (int i = 0; ids != null && i < positions.length; i++) {
                            int id = ids[positions[i]];
                            if (wanted == null
                                    || (id >= 0 && id < wanted.length && wanted[id] >= 0)) {
                                expected.add((row + r) + "@" + positions[i] + "=" + id);
                            }
                        }
                    }
                    List<String> hits = new ArrayList<>();
                    for (int x = 0; x < probe.hits; x++) {
                        hits.add(
                                (row + probe.hitRow[x])
                                        + "@"
                                        + positions[probe.hitIndex[x]]
                                        + "="
                                        + probe.hitId[x]);
                    }
                    assertThat(hits)
                            .as(
                                    "hits (row@column=id) of rows %d..%d (%s)",
                                    row, row + n - 1, TestSeeds.describe("mappingProbe", seed))
                            .containsExactlyElementsOf(expected);
                    row += n;
                    done += n;
                }
                assertThat(probe.atEnd()).as("chunk ends with the row group").isTrue();
            }
        }
        assertThat(row).isEqualTo(rows.size());
        assertThat(rowGroups).as("row groups").isGreaterThan(2);
    }

    /**
     * Rows of K ids whose levels encode identically, so most are read without decoding their levels
     * again; one of them holds a NULL id at {@code column} (K entries, one with definition level
     * 3), and must still fail naming the file.
     */
    @ParameterizedTest(name = "NULL id at column {0}")
    @CsvSource({"0", "1", "7", "8", "23"})
    void aNullIdInARowOfKEntriesFailsNamingTheFile(int column) throws IOException {
        MessageType schema = SCHEMA;
        org.apache.hadoop.fs.Path file =
                new org.apache.hadoop.fs.Path(
                        dir.resolve("null-id-" + column + ".parquet").toUri());
        SimpleGroupFactory groups = new SimpleGroupFactory(schema);
        try (ParquetWriter<Group> writer =
                ExampleParquetWriter.builder(file)
                        .withType(schema)
                        .withConf(new Configuration())
                        .withDictionaryEncoding(true)
                        .build()) {
            for (int i = 0; i < 300; i++) {
                Group g = groups.newGroup();
                Group mapping = g.addGroup("m").addGroup("__field_mapping");
                for (int c = 0; c < K; c++) {
                    Group element = mapping.addGroup("list");
                    if (i != 200 || c != column) {
                        element.append("element", c);
                    }
                }
                writer.write(g);
            }
        }
        ColumnDescriptor d = SCHEMA.getColumns().get(0);
        try (ParquetFileReader reader =
                ParquetFileReader.open(HadoopInputFile.fromPath(file, new Configuration()))) {
            PageReadStore pages = reader.readNextRowGroup();
            MappingProbe probe =
                    new MappingProbe(
                            pages.getPageReader(d), d, file.toString(), K, new int[] {3}, null);
            probe.next(200);
            assertThat(probe.hits).isEqualTo(200);
            for (int r = 0; r < 200; r++) {
                assertThat(probe.hitRow[r]).as("row %d", r).isEqualTo(r);
                assertThat(probe.hitId[r]).as("row %d", r).isEqualTo(3);
            }
            assertThatThrownBy(() -> probe.next(100))
                    .hasMessageContaining(file.toString())
                    .hasMessageContaining("does not hold exactly K=" + K + " ids");
        }
    }

    /** Width 0 is a NULL mapping in a map that is not NULL, which Paimon's reader refuses too. */
    @ParameterizedTest(name = "{0} ids in a row of K")
    @CsvSource({"0", "23", "25"})
    void aRowWithoutExactlyKIdsFailsNamingTheFile(int width) throws IOException {
        List<int[]> rows = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            int[] ids = new int[i == 20 ? width : K];
            Arrays.fill(ids, i);
            rows.add(ids);
        }
        org.apache.hadoop.fs.Path file = write(rows, WriterVersion.PARQUET_1_0, true);
        ColumnDescriptor d = SCHEMA.getColumns().get(0);
        try (ParquetFileReader reader =
                ParquetFileReader.open(HadoopInputFile.fromPath(file, new Configuration()))) {
            PageReadStore pages = reader.readNextRowGroup();
            MappingProbe probe =
                    new MappingProbe(
                            pages.getPageReader(d), d, file.toString(), K, new int[] {0, 5}, null);
            assertThatThrownBy(() -> probe.next(50))
                    .hasMessageContaining(file.toString())
                    .hasMessageContaining("does not hold exactly K=" + K + " ids");
        }
    }
}
