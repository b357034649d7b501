package dev.strata.spark.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.strata.spark.StrataSparkTestBase;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.arrow.flatbuf.Field;
import org.apache.arrow.flatbuf.KeyValue;
import org.apache.arrow.flatbuf.Message;
import org.apache.arrow.flatbuf.Schema;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;

/**
 * {@code t$shredding} against an independent reading of every data file on disk: parquet-mr's
 * footer, the Arrow schema entry decoded with Arrow's own FlatBuffer classes, Paimon's dictionary
 * and overflow JSON parsed here, and the footer length from the file's last 8 bytes.
 */
class ShreddingSystemTableTest extends StrataSparkTestBase {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** What one file's footer says about the shredded column {@code ext_map}. */
    private record FileFooter(
            String layout,
            Integer k,
            Integer keys,
            Integer overflowKeys,
            long rows,
            long footerBytes,
            Long arrowBytes,
            Long strataBytes) {}

    private FileFooter readFooter(Path file) throws IOException {
        long footerLength;
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "r")) {
            byte[] tail = new byte[8];
            raf.seek(raf.length() - 8);
            raf.readFully(tail);
            assertThat(new String(tail, 4, 4, StandardCharsets.US_ASCII)).isEqualTo("PAR1");
            footerLength =
                    ByteBuffer.wrap(tail, 0, 4).order(ByteOrder.LITTLE_ENDIAN).getInt()
                            & 0xffffffffL;
        }
        try (ParquetFileReader reader =
                ParquetFileReader.open(
                        HadoopInputFile.fromPath(
                                new org.apache.hadoop.fs.Path(file.toUri()),
                                new Configuration()))) {
            Map<String, String> kv = reader.getFooter().getFileMetaData().getKeyValueMetaData();
            long rows =
                    reader.getFooter().getBlocks().stream()
                            .mapToLong(BlockMetaData::getRowCount)
                            .sum();
            String arrow = kv.get("ARROW:schema");
            String strata = kv.get("strata.shredding.ext_map");
            Long arrowBytes =
                    arrow == null ? null : (long) arrow.getBytes(StandardCharsets.UTF_8).length;
            Long strataBytes =
                    strata == null ? null : (long) strata.getBytes(StandardCharsets.UTF_8).length;
            Map<String, String> keys =
                    arrow == null ? Map.of() : arrowFieldMetadata(arrow, "ext_map");
            if (!"shared-shredding".equals(keys.get("paimon.map.storage-layout"))) {
                return new FileFooter(
                        "default", null, null, null, rows, footerLength, arrowBytes, strataBytes);
            }
            assertThat(keys.get("paimon.map.shared-shredding.field-dict-compression"))
                    .isEqualTo("none");
            String latin1 = keys.get("paimon.map.shared-shredding.field-dict");
            byte[] dict = new byte[latin1.length()];
            for (int i = 0; i < dict.length; i++) {
                dict[i] = (byte) latin1.charAt(i);
            }
            JsonNode dictionary = JSON.readTree(new String(dict, StandardCharsets.UTF_8));
            JsonNode overflow = JSON.readTree(keys.get("paimon.map.shared-shredding.overflow-set"));
            return new FileFooter(
                    "shared-shredding",
                    Integer.parseInt(keys.get("paimon.map.shared-shredding.num-columns")),
                    dictionary.size(),
                    overflow.size(),
                    rows,
                    footerLength,
                    arrowBytes,
                    strataBytes);
        }
    }

    /** The custom metadata of the top-level field {@code column} in an ARROW:schema value. */
    private static Map<String, String> arrowFieldMetadata(String value, String column) {
        ByteBuffer buf =
                ByteBuffer.wrap(Base64.getDecoder().decode(value)).order(ByteOrder.LITTLE_ENDIAN);
        int start = buf.getInt(0) == -1 ? 8 : 4;
        buf.position(start);
        Message message = Message.getRootAsMessage(buf.slice().order(ByteOrder.LITTLE_ENDIAN));
        Schema schema = (Schema) message.header(new Schema());
        Map<String, String> out = new HashMap<>();
        for (int i = 0; i < schema.fieldsLength(); i++) {
            Field field = schema.fields(i);
            if (field.name().equals(column)) {
                for (int j = 0; j < field.customMetadataLength(); j++) {
                    KeyValue kv = field.customMetadata(j);
                    out.put(kv.key(), kv.value());
                }
            }
        }
        return out;
    }

    private Map<String, Path> dataFiles(String name) throws IOException {
        Path dir = warehouse.resolve("sh_sys.db").resolve(name);
        Map<String, Path> out = new HashMap<>();
        try (Stream<Path> files = Files.walk(dir)) {
            files.filter(
                            p ->
                                    p.getFileName().toString().startsWith("data-")
                                            && !p.toString().endsWith(".crc"))
                    .forEach(p -> out.put(p.getFileName().toString(), p));
        }
        return out;
    }

    @Test
    void reportsWhatEachDataFilesFooterSays() throws Exception {
        sql("CREATE NAMESPACE IF NOT EXISTS lake.sh_sys");
        sql(
                "CREATE TABLE lake.sh_sys.m (id BIGINT, ext_map MAP<STRING, DOUBLE>) TBLPROPERTIES ('file.compression' = 'none')");
        String rows =
                "SELECT id, map_from_arrays(transform(sequence(0, CAST(id %% 20 AS INT)), "
                        + "i -> concat('k', CAST((id * 7 + i) %% %d AS STRING))), transform(sequence(0, CAST(id %% 20 AS INT)), "
                        + "i -> CAST(i AS DOUBLE))) FROM range(%d, %d)";
        // Written before the column is shredded: Paimon's plain MAP layout.
        sql("INSERT INTO lake.sh_sys.m " + rows, 50, 0, 500);
        sql(
                "ALTER TABLE lake.sh_sys.m SET TBLPROPERTIES ('fields.ext_map.map.storage-layout' = 'shared-shredding', "
                        + "'fields.ext_map.map.shared-shredding.max-columns' = '8')");
        sql("INSERT INTO lake.sh_sys.m " + rows, 300, 500, 3000);
        sql("INSERT INTO lake.sh_sys.m " + rows, 30, 3000, 4000);

        List<Row> report =
                sql(
                        "SELECT file, column, layout, k, keys, overflow_keys, rows, file_bytes, footer_bytes, "
                                + "arrow_schema_bytes, strata_footer_bytes, partition, bucket, level FROM lake.sh_sys.`m$shredding`");
        Map<String, Path> onDisk = dataFiles("m");
        assertThat(report)
                .extracting(r -> r.getString(0))
                .containsExactlyInAnyOrderElementsOf(onDisk.keySet());
        int shredded = 0;
        for (Row r : report) {
            Path file = onDisk.get(r.getString(0));
            FileFooter footer = readFooter(file);
            assertThat(r.getString(1)).isEqualTo("ext_map");
            assertThat(r.getString(2)).as("layout of %s", file).isEqualTo(footer.layout);
            assertThat((Integer) r.getAs("k")).isEqualTo(footer.k);
            assertThat((Integer) r.getAs("keys")).isEqualTo(footer.keys);
            assertThat((Integer) r.getAs("overflow_keys")).isEqualTo(footer.overflowKeys);
            assertThat(r.getLong(6)).isEqualTo(footer.rows);
            assertThat(r.getLong(7)).isEqualTo(Files.size(file));
            assertThat(r.getLong(8)).isEqualTo(footer.footerBytes);
            assertThat((Long) r.getAs("arrow_schema_bytes")).isEqualTo(footer.arrowBytes);
            assertThat((Long) r.getAs("strata_footer_bytes")).isEqualTo(footer.strataBytes);
            assertThat(r.getString(11)).isEmpty();
            assertThat(r.getInt(12)).isZero();
            if (footer.layout.equals("shared-shredding")) {
                shredded++;
                assertThat(footer.k).isEqualTo(8);
                assertThat(footer.strataBytes).isPositive();
            }
        }
        assertThat(shredded).isGreaterThanOrEqualTo(2);
        assertThat(report).anySatisfy(r -> assertThat(r.getString(2)).isEqualTo("default"));
        // Up to 300 keys share the 8 columns.
        assertThat(report).filteredOn(r -> !r.isNullAt(4) && r.getInt(4) > 8).isNotEmpty();

        // After a rename the files keep the column (and its footer entry) under the old name:
        // each file reports what it did before, under the column's new name.
        String footerColumns =
                "layout, k, keys, overflow_keys, rows, footer_bytes, arrow_schema_bytes, strata_footer_bytes";
        Map<String, List<Object>> before = new TreeMap<>();
        for (Row r : sql("SELECT file, %s FROM lake.sh_sys.`m$shredding`", footerColumns)) {
            before.put(r.getString(0), values(r));
        }
        sql("ALTER TABLE lake.sh_sys.m RENAME COLUMN ext_map TO attrs");
        Map<String, List<Object>> after = new TreeMap<>();
        for (Row r :
                sql(
                        "SELECT file, %s FROM lake.sh_sys.`m$shredding` WHERE column = 'attrs'",
                        footerColumns)) {
            after.put(r.getString(0), values(r));
        }
        assertThat(after).isEqualTo(before);

        // A column of the same name added after the old one was dropped is another column: the
        // files written before hold nothing of it.
        sql("ALTER TABLE lake.sh_sys.m DROP COLUMN attrs");
        sql("ALTER TABLE lake.sh_sys.m ADD COLUMN attrs MAP<STRING, DOUBLE>");
        sql(
                "ALTER TABLE lake.sh_sys.m SET TBLPROPERTIES ('fields.attrs.map.storage-layout' = 'shared-shredding')");
        sql("INSERT INTO lake.sh_sys.m VALUES (9999, map('z', 1.0D))");
        Map<String, String> layouts = new TreeMap<>();
        for (Row r : sql("SELECT file, layout FROM lake.sh_sys.`m$shredding`")) {
            layouts.put(r.getString(0), r.isNullAt(1) ? "absent" : r.getString(1));
        }
        Map<String, String> expected = new TreeMap<>();
        before.keySet().forEach(f -> expected.put(f, "absent"));
        assertThat(layouts).containsAllEntriesOf(expected);
        assertThat(layouts).hasSize(before.size() + 1).containsValue("shared-shredding");
    }

    private static List<Object> values(Row r) {
        List<Object> out = new java.util.ArrayList<>();
        for (int i = 1; i < r.size(); i++) {
            out.add(r.get(i));
        }
        return out;
    }

    @Test
    void manifestColumnsAloneReadNoFooterAndAFooterColumnNamesADamagedFile() throws Exception {
        sql("CREATE NAMESPACE IF NOT EXISTS lake.sh_sys");
        sql(
                "CREATE TABLE lake.sh_sys.d (id BIGINT, ext_map MAP<STRING, INT>) TBLPROPERTIES ("
                        + "'fields.ext_map.map.storage-layout' = 'shared-shredding')");
        sql(
                "INSERT INTO lake.sh_sys.d SELECT id, map('a', CAST(id AS INT), 'b', 1) FROM range(0, 100)");
        Path file = dataFiles("d").values().iterator().next();
        long size = Files.size(file);
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.seek(size - 4);
            raf.write(new byte[] {'X', 'X', 'X', 'X'});
        }
        List<Row> manifestColumns =
                sql("SELECT file, rows, file_bytes FROM lake.sh_sys.`d$shredding`");
        assertThat(manifestColumns.stream().mapToLong(r -> r.getLong(1)).sum()).isEqualTo(100);
        assertThat(manifestColumns)
                .filteredOn(r -> r.getString(0).equals(file.getFileName().toString()))
                .singleElement()
                .satisfies(r -> assertThat(r.getLong(2)).isEqualTo(size));
        assertThatThrownBy(() -> sql("SELECT file, k FROM lake.sh_sys.`d$shredding`"))
                .hasMessageContaining(file.getFileName().toString());
    }

    /** Files stay shredded after the layout is set back to default, until compaction. */
    @Test
    void aColumnSetBackToDefaultListsItsFilesUntilCompactionRewritesThem() {
        sql("CREATE NAMESPACE IF NOT EXISTS lake.sh_sys");
        sql(
                "CREATE TABLE lake.sh_sys.back (id BIGINT, m MAP<STRING, INT>) TBLPROPERTIES ("
                        + "'primary-key' = 'id', 'bucket' = '1', "
                        + "'fields.m.map.storage-layout' = 'shared-shredding')");
        sql("INSERT INTO lake.sh_sys.back SELECT id, map('a', CAST(id AS INT)) FROM range(0, 50)");
        sql(
                "ALTER TABLE lake.sh_sys.back SET TBLPROPERTIES ("
                        + "'fields.m.map.storage-layout' = 'default')");
        sql("INSERT INTO lake.sh_sys.back SELECT id, map('b', 1) FROM range(50, 80)");
        Map<Long, String> layoutByRows = new TreeMap<>();
        for (Row r : sql("SELECT rows, layout, column FROM lake.sh_sys.`back$shredding`")) {
            assertThat(r.getString(2)).isEqualTo("m");
            layoutByRows.put(r.getLong(0), r.getString(1));
        }
        assertThat(layoutByRows)
                .containsExactly(Map.entry(30L, "default"), Map.entry(50L, "shared-shredding"));
        sql("CALL lake.sys.compact(table => 'sh_sys.back')");
        assertThat(sql("SELECT rows, layout FROM lake.sh_sys.`back$shredding`"))
                .singleElement()
                .satisfies(
                        r -> {
                            assertThat(r.getLong(0)).isEqualTo(80);
                            assertThat(r.getString(1)).isEqualTo("default");
                        });
    }

    @Test
    void aTableWithoutShreddedColumnsIsRefusedNamingTheOption() {
        sql("CREATE NAMESPACE IF NOT EXISTS lake.sh_sys");
        sql("CREATE TABLE lake.sh_sys.p (id BIGINT, m MAP<STRING, INT>)");
        assertThatThrownBy(() -> sql("SELECT * FROM lake.sh_sys.`p$shredding`"))
                .hasMessageContaining("Cannot read lake.sh_sys.`p$shredding`")
                .hasMessageContaining("fields.<column>.map.storage-layout");
    }
}
