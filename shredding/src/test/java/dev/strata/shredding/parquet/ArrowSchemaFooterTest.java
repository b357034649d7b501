package dev.strata.shredding.parquet;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.luben.zstd.Zstd;
import dev.strata.shredding.allocate.PlacementPolicy;
import dev.strata.shredding.layout.ArrowSchemaFooter;
import dev.strata.testing.Fixtures;
import java.io.ByteArrayInputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.Channels;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import net.jpountz.lz4.LZ4Factory;
import org.apache.arrow.vector.ipc.ReadChannel;
import org.apache.arrow.vector.ipc.message.MessageSerializer;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.fs.Path;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowType;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The {@code ARROW:schema} footer entry Strata writes for shredded columns: decoded with Arrow
 * Java's own IPC reader (not Strata's) and the dictionary with zstd-jni / lz4-java directly, for
 * the worked example (K = 3, LRU) under each dictionary codec, and compared byte for byte with the
 * entry Apache Paimon 2.0.0 wrote for the same rows and schema (fixture tables {@code
 * example_<codec>}).
 */
class ArrowSchemaFooterTest {

    @TempDir java.nio.file.Path tmp;

    private static final RowType ROW_TYPE =
            new RowType(
                    List.of(
                            new DataField(0, "id", DataTypes.INT()),
                            new DataField(
                                    1,
                                    "m",
                                    DataTypes.MAP(
                                            DataTypes.STRING().notNull(), DataTypes.DOUBLE()))));

    private static InternalRow row(int id, Object... kv) {
        if (kv.length == 1 && kv[0] == null) {
            return GenericRow.of(id, null);
        }
        Object[] keys = new Object[kv.length / 2];
        Object[] values = new Object[kv.length / 2];
        for (int i = 0; i < kv.length; i += 2) {
            keys[i / 2] = BinaryString.fromString((String) kv[i]);
            values[i / 2] = kv[i + 1];
        }
        return GenericRow.of(id, new ArrayBackedMap(keys, values));
    }

    /**
     * The worked example: ids assigned cpu=0, mem=1, disk=2, net=3, gpu=4; gpu overflows in r3
     * under LRU.
     */
    static List<InternalRow> example() {
        List<InternalRow> rows = new ArrayList<>();
        rows.add(row(0, "cpu", 1.0, "mem", 2.0, "disk", 3.0));
        rows.add(row(1, "mem", 5.0, "cpu", 4.0));
        rows.add(row(2, "net", 7.0));
        rows.add(row(3, "gpu", 9.0, "net", 8.0, "cpu", 6.0, "mem", 1.0));
        rows.add(row(4));
        rows.add(row(5, (Object) null));
        return rows;
    }

    private String strataFooter(String codec) throws Exception {
        java.nio.file.Path file = tmp.resolve("example-" + codec + ".parquet");
        FileRoundTrip.write(
                new Path(file.toUri().toString()),
                ROW_TYPE,
                Map.of("m", 3),
                PlacementPolicy.LRU,
                new ShreddedParquetWriter.Settings().compression(codec),
                example(),
                r -> r);
        return footer(file, ArrowSchemaFooter.KEY);
    }

    private static String footer(java.nio.file.Path file, String key) throws Exception {
        Path p = new Path(file.toUri().toString());
        try (ParquetFileReader r =
                ParquetFileReader.open(
                        PaimonFiles.inputFile(FileRoundTrip.IO, p, Files.size(file)),
                        PaimonFiles.readOptions())) {
            return r.getFooter().getFileMetaData().getKeyValueMetaData().get(key);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"none", "lz4", "zstd"})
    void workedExampleDecodedByArrowJava(String codec) throws Exception {
        String value = strataFooter(codec);
        assertThat(value).isNotNull();
        Schema schema =
                MessageSerializer.deserializeSchema(
                        new ReadChannel(
                                Channels.newChannel(
                                        new ByteArrayInputStream(
                                                Base64.getDecoder().decode(value)))));

        assertThat(schema.getFields()).extracting(Field::getName).containsExactly("id", "m");
        assertThat(schema.findField("id").getMetadata())
                .containsExactly(Map.entry("PARQUET:field_id", "0"));
        Field m = schema.findField("m");
        assertThat(m.getType()).isInstanceOf(ArrowType.Struct.class);
        assertThat(m.getChildren())
                .extracting(Field::getName)
                .containsExactly("__field_mapping", "__col_0", "__col_1", "__col_2", "__overflow");
        assertThat(m.getChildren().get(0).getType()).isInstanceOf(ArrowType.List.class);
        assertThat(m.getChildren().get(1).getType())
                .isEqualTo(
                        new ArrowType.FloatingPoint(
                                org.apache.arrow.vector.types.FloatingPointPrecision.DOUBLE));
        assertThat(m.getChildren().get(4).getType()).isInstanceOf(ArrowType.Map.class);
        assertThat(m.getChildren().get(4).getChildren().get(0).getChildren())
                .extracting(Field::getName)
                .containsExactly("key", "value");
        assertThat(m.getChildren().get(4).getChildren().get(0).getChildren().get(0).isNullable())
                .isFalse();

        Map<String, String> md = m.getMetadata();
        // Arrow Java's metadata map does not keep the stored order; sameBytesAsPaimon200 checks the
        // order.
        assertThat(md)
                .containsOnlyKeys(
                        "paimon.map.storage-layout",
                        "paimon.map.shared-shredding.version",
                        "paimon.map.shared-shredding.field-dict-compression",
                        "paimon.map.shared-shredding.field-dict-original-size",
                        "paimon.map.shared-shredding.field-dict",
                        "paimon.map.shared-shredding.field-columns",
                        "paimon.map.shared-shredding.overflow-set",
                        "paimon.map.shared-shredding.num-columns",
                        "paimon.map.shared-shredding.max-row-width",
                        "PARQUET:field_id");
        assertThat(md.get("paimon.map.storage-layout")).isEqualTo("shared-shredding");
        assertThat(md.get("paimon.map.shared-shredding.version")).isEqualTo("1");
        assertThat(md.get("paimon.map.shared-shredding.field-dict-compression")).isEqualTo(codec);
        assertThat(md.get("paimon.map.shared-shredding.field-dict-original-size")).isEqualTo("42");
        assertThat(dictionary(md.get("paimon.map.shared-shredding.field-dict"), codec, 42))
                .isEqualTo("{\"cpu\":0,\"disk\":2,\"gpu\":4,\"mem\":1,\"net\":3}");
        assertThat(md.get("paimon.map.shared-shredding.field-columns"))
                .isEqualTo("{\"0\":[0],\"1\":[1],\"2\":[2],\"3\":[2]}");
        assertThat(md.get("paimon.map.shared-shredding.overflow-set")).isEqualTo("[4]");
        assertThat(md.get("paimon.map.shared-shredding.num-columns")).isEqualTo("3");
        assertThat(md.get("paimon.map.shared-shredding.max-row-width")).isEqualTo("4");
        assertThat(md.get("PARQUET:field_id")).isEqualTo("1");
    }

    /**
     * Independent of Strata's codec code: chars back to bytes (ISO-8859-1), then zstd-jni or
     * lz4-java.
     */
    private static String dictionary(String stored, String codec, int originalSize) {
        byte[] packed = stored.getBytes(StandardCharsets.ISO_8859_1);
        byte[] raw;
        switch (codec) {
            case "none":
                raw = packed;
                break;
            case "zstd":
                raw = Zstd.decompress(packed, originalSize);
                break;
            case "lz4":
                {
                    ByteBuffer header =
                            ByteBuffer.wrap(packed, 0, 8).order(ByteOrder.LITTLE_ENDIAN);
                    assertThat(header.getInt())
                            .as("lz4 compressed length")
                            .isEqualTo(packed.length - 8);
                    assertThat(header.getInt()).as("lz4 original length").isEqualTo(originalSize);
                    raw = new byte[originalSize];
                    LZ4Factory.safeInstance()
                            .safeDecompressor()
                            .decompress(packed, 8, packed.length - 8, raw, 0);
                    break;
                }
            default:
                throw new IllegalArgumentException(codec);
        }
        assertThat(raw).hasSize(originalSize);
        return new String(raw, StandardCharsets.UTF_8);
    }

    @ParameterizedTest
    @ValueSource(strings = {"none", "lz4", "zstd"})
    void sameBytesAsPaimon200(String codec) throws Exception {
        java.nio.file.Path table = Fixtures.copyPaimon2Table("example_" + codec, tmp.resolve("wh"));
        java.nio.file.Path paimonFile;
        try (Stream<java.nio.file.Path> files = Files.list(table.resolve("bucket-0"))) {
            List<java.nio.file.Path> data =
                    files.filter(f -> f.getFileName().toString().endsWith(".parquet"))
                            .collect(Collectors.toList());
            assertThat(data).hasSize(1);
            paimonFile = data.get(0);
        }
        String paimon = footer(paimonFile, ArrowSchemaFooter.KEY);
        assertThat(paimon).isNotNull();
        assertThat(strataFooter(codec)).isEqualTo(paimon);
    }
}
