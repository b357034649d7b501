package dev.strata.shredding;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.strata.shredding.allocate.PlacementPolicy;
import java.util.HashMap;
import java.util.Map;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowType;
import org.junit.jupiter.api.Test;

class ShreddingOptionsTest {

    private static final RowType SCHEMA =
            RowType.of(
                    new org.apache.paimon.types.DataType[] {
                        DataTypes.BIGINT(),
                        DataTypes.MAP(DataTypes.STRING().notNull(), DataTypes.DOUBLE()),
                        DataTypes.STRING(),
                        DataTypes.MAP(DataTypes.STRING(), DataTypes.INT()),
                        DataTypes.MAP(DataTypes.INT().notNull(), DataTypes.INT())
                    },
                    new String[] {"id", "m", "s", "nullable_keys", "int_keys"});

    private static Map<String, String> shredded(String column, String... more) {
        Map<String, String> o = new HashMap<>();
        o.put("fields." + column + ".map.storage-layout", "shared-shredding");
        for (int i = 0; i < more.length; i += 2) {
            o.put(more[i], more[i + 1]);
        }
        return o;
    }

    private static void rejects(Map<String, String> options, String... fragments) {
        var a =
                assertThatThrownBy(() -> ShreddingOptions.validate("db.t", SCHEMA, options))
                        .isInstanceOf(IllegalArgumentException.class)
                        .hasMessageContaining("db.t");
        for (String f : fragments) {
            a.hasMessageContaining(f);
        }
    }

    @Test
    void acceptsValidLayoutsCaseInsensitively() {
        assertThatCode(
                        () ->
                                ShreddingOptions.validate(
                                        "db.t",
                                        SCHEMA,
                                        shredded(
                                                "m",
                                                "fields.m.map.shared-shredding.max-columns",
                                                "128",
                                                "fields.m.map.shared-shredding.column-placement-policy",
                                                "Sequential",
                                                "file.compression",
                                                "ZSTD")))
                .doesNotThrowAnyException();
        Map<String, String> mixedCase = new HashMap<>();
        mixedCase.put("fields.m.map.storage-layout", "Shared-Shredding");
        assertThatCode(() -> ShreddingOptions.validate("db.t", SCHEMA, mixedCase))
                .doesNotThrowAnyException();
        var layouts = ShreddingOptions.shreddedColumns(SCHEMA, mixedCase);
        assertThat(layouts).containsOnlyKeys("m");
        assertThat(layouts.get("m").maxColumns()).isEqualTo(256);
        assertThat(layouts.get("m").policy()).isEqualTo(PlacementPolicy.DISJOINT);
        assertThat(
                        ShreddingOptions.shreddedColumns(
                                        SCHEMA,
                                        shredded(
                                                "m",
                                                "fields.m.strata-shredded.column-placement-policy",
                                                "disjoint"))
                                .get("m")
                                .policy())
                .isEqualTo(PlacementPolicy.DISJOINT);
        assertThat(
                        ShreddingOptions.shreddedColumns(
                                        SCHEMA,
                                        shredded(
                                                "m",
                                                "fields.m.map.shared-shredding.column-placement-policy",
                                                "lru"))
                                .get("m")
                                .policy())
                .as("a policy set under Paimon's key is what Strata's writers use")
                .isEqualTo(PlacementPolicy.LRU);
        assertThatCode(
                        () ->
                                ShreddingOptions.validate(
                                        "db.t", SCHEMA, Map.of("fields.s.other", "x")))
                .doesNotThrowAnyException();
    }

    @Test
    void rejectsEachRuleOfTheSpecWithItsMessage() {
        rejects(
                shredded("nope"),
                "Column 'nope' is configured with map.storage-layout but does not exist in table schema.",
                "fields.nope.map.storage-layout");
        rejects(
                Map.of("fields.s.map.storage-layout", "default"),
                "Column 's' is configured with map.storage-layout but its type is not MAP.");
        rejects(
                shredded("int_keys"),
                "map.storage-layout=shared-shredding but its type is not MAP<STRING NOT NULL, T>.");
        rejects(shredded("nullable_keys"), "shared-shredding but its map key type is nullable.");
        rejects(
                Map.of("fields.m.map.storage-layout", "columnar"),
                "'columnar'",
                "Expected one of: [default, shared-shredding]");
        rejects(
                shredded("m", "fields.m.map.shared-shredding.max-columns", "0"),
                "options map.shared-shredding.max-columns must > 0",
                "'0'");
        rejects(
                shredded("m", "fields.m.map.shared-shredding.max-columns", "-1"),
                "must > 0",
                "'-1'");
        rejects(
                shredded("m", "fields.m.map.shared-shredding.max-columns", "many"),
                "'many'",
                "not an integer");
        rejects(
                shredded("m", "fields.m.map.shared-shredding.column-placement-policy", "random"),
                "'random'",
                "Expected one of: [plain, sequential, lru]",
                "'fields.m.strata-shredded.column-placement-policy'");
        rejects(
                shredded("m", "fields.m.map.shared-shredding.column-placement-policy", "disjoint"),
                "'disjoint'",
                "Expected one of: [plain, sequential, lru]",
                "'fields.m.strata-shredded.column-placement-policy'");
        rejects(
                shredded("m", "fields.m.strata-shredded.column-placement-policy", "lru"),
                "'lru'",
                "takes only Strata's own policies 'disjoint' and 'stable'",
                "'fields.m.map.shared-shredding.column-placement-policy'");
        rejects(
                shredded("m", "file.format", "orc"),
                "shared-shredding column 'm' can only be stored in Parquet by Strata, "
                        + "but file.format is orc (Strata supports parquet",
                "Set 'file.format' = 'parquet'");
        rejects(
                shredded("m", "file.format", "strata-shredded"),
                "file.format is strata-shredded (Strata supports parquet only)",
                "Set 'file.format' = 'parquet'");
        rejects(
                shredded("m", "file.format", "avro"),
                "file.format is avro",
                "Set 'file.format' = 'parquet'");
        rejects(
                shredded("m", "file.format.per.level", "0:avro,3:parquet"),
                "file.format.per.level.0 is avro");
        rejects(shredded("m", "changelog-file.format", "avro"), "changelog-file.format is avro");
        rejects(
                shredded("m", "file.compression", "snappy"),
                "MAP shared-shredding only supports none/lz4/zstd compression, but file.compression is snappy.");
        rejects(
                shredded("m", "file.compression.per.level", "0:gzip"),
                "file.compression.per.level.0 is gzip");
        rejects(shredded("m", "bucket", "-2"), "does not support postpone bucket mode");
        rejects(shredded("m", "bucket", "-2"), "for a table without a primary key, -1");
        rejects(
                shredded("m", "file-index.bloom-filter.columns", "id,m[a]"),
                "does not support nested file index");
    }

    @Test
    void anOptionForAColumnWhoseNameHoldsADotNamesTheColumnAndWhatToDo() {
        RowType dotted =
                RowType.of(
                        new org.apache.paimon.types.DataType[] {
                            DataTypes.BIGINT(),
                            DataTypes.MAP(DataTypes.STRING(), DataTypes.DOUBLE())
                        },
                        new String[] {"id", "m.x"});
        assertThatThrownBy(() -> ShreddingOptions.validate("db.t", dotted, shredded("m.x")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("db.t")
                .hasMessageContaining("'fields.m.x.map.storage-layout' names column 'm.x'")
                .hasMessageContaining("Rename the column");
    }

    @Test
    void rejectsVariantAndMultisetNeighboursAndBlobValues() {
        RowType withMultiset =
                RowType.of(
                        new org.apache.paimon.types.DataType[] {
                            DataTypes.MAP(DataTypes.STRING().notNull(), DataTypes.DOUBLE()),
                            DataTypes.MULTISET(DataTypes.INT())
                        },
                        new String[] {"m", "bag"});
        assertThatThrownBy(() -> ShreddingOptions.validate("db.t", withMultiset, shredded("m")))
                .hasMessageContaining("cannot be used with MULTISET fields.");
        RowType withVariant =
                RowType.of(
                        new org.apache.paimon.types.DataType[] {
                            DataTypes.MAP(DataTypes.STRING().notNull(), DataTypes.DOUBLE()),
                            DataTypes.VARIANT()
                        },
                        new String[] {"m", "v"});
        assertThatThrownBy(() -> ShreddingOptions.validate("db.t", withVariant, shredded("m")))
                .hasMessageContaining("cannot be used with Variant fields.");
        RowType blobValues =
                RowType.of(
                        new org.apache.paimon.types.DataType[] {
                            DataTypes.MAP(DataTypes.STRING().notNull(), DataTypes.BLOB())
                        },
                        new String[] {"m"});
        assertThatThrownBy(() -> ShreddingOptions.validate("db.t", blobValues, shredded("m")))
                .hasMessageContaining("cannot contain BLOB fields.");
    }

    @Test
    void writerOptionsAreValidatedNamingTheOption() {
        rejects(
                shredded("m", ShreddingOptions.MAX_SEGMENTS.key(), "0"),
                "option 'strata-shredded.max-segments' has value '0'",
                "> 0");
        rejects(
                shredded("m", ShreddingOptions.MAX_SEGMENTS.key(), "many"),
                "'strata-shredded.max-segments'",
                "has value 'many', expected an integer > 0");
        rejects(
                shredded("m", ShreddingOptions.BYTE_STREAM_SPLIT.key(), "yes"),
                "'strata-shredded.byte-stream-split'",
                "true or false");
        assertThatCode(
                        () ->
                                ShreddingOptions.validate(
                                        "db.t",
                                        SCHEMA,
                                        shredded(
                                                "m",
                                                ShreddingOptions.MAX_SEGMENTS.key(),
                                                " 12 ",
                                                ShreddingOptions.BYTE_STREAM_SPLIT.key(),
                                                "TRUE")))
                .doesNotThrowAnyException();
        assertThat(
                        ShreddingOptions.maxSegments(
                                "db.t", Map.of(ShreddingOptions.MAX_SEGMENTS.key(), "12")))
                .isEqualTo(12);
        assertThat(ShreddingOptions.maxSegments("db.t", Map.of()))
                .isEqualTo(dev.strata.shredding.layout.GroupPlacement.DEFAULT_MAX_SEGMENTS);
        assertThat(ShreddingOptions.byteStreamSplit("db.t", Map.of())).isFalse();
    }

    @Test
    void stablePlacementLivesUnderStrataKeyWhichWinsOverPaimonsForStrataWriters() {
        Map<String, String> o =
                shredded(
                        "m",
                        "fields.m.strata-shredded.column-placement-policy",
                        "Stable",
                        "fields.m.map.shared-shredding.column-placement-policy",
                        "plain");
        assertThatCode(() -> ShreddingOptions.validate("db.t", SCHEMA, o))
                .doesNotThrowAnyException();
        assertThatCode(() -> ShreddingOptions.checkNoNewLegacyKeys("db.t", o, null))
                .doesNotThrowAnyException();
        assertThat(ShreddingOptions.shreddedColumns(SCHEMA, o).get("m").policy())
                .isEqualTo(PlacementPolicy.STABLE);
        assertThat(ShreddingOptions.policyKey("m", "stable"))
                .isEqualTo("fields.m.strata-shredded.column-placement-policy");
        assertThat(ShreddingOptions.policyKey("m", "lru"))
                .isEqualTo("fields.m.map.shared-shredding.column-placement-policy");
    }

    @Test
    void stableUnderPaimonsKeyIsRefusedWhenSetButReadAndMovedOnTablesThatHaveIt() {
        Map<String, String> old =
                shredded("m", "fields.m.map.shared-shredding.column-placement-policy", "stable");
        assertThatThrownBy(() -> ShreddingOptions.checkNoNewLegacyKeys("db.t", old, null))
                .hasMessage(
                        "Cannot create table db.t with option"
                                + " 'fields.m.map.shared-shredding.column-placement-policy' ="
                                + " 'stable': Apache Paimon 2.0 validates that key and cannot open a"
                                + " table whose value it does not know ('stable' is Strata's own"
                                + " policy). Set 'fields.m.strata-shredded.column-placement-policy'"
                                + " = 'stable' instead.");
        Map<String, String> lru =
                shredded("m", "fields.m.map.shared-shredding.column-placement-policy", "lru");
        assertThatThrownBy(() -> ShreddingOptions.checkNoNewLegacyKeys("db.t", old, lru))
                .hasMessageStartingWith("Cannot alter table db.t with option");
        assertThatCode(() -> ShreddingOptions.checkNoNewLegacyKeys("db.t", old, old))
                .doesNotThrowAnyException();
        assertThat(ShreddingOptions.shreddedColumns(SCHEMA, old).get("m").policy())
                .isEqualTo(PlacementPolicy.STABLE);
        Map<String, String> moved = ShreddingOptions.withCurrentKeys(old);
        assertThat(moved)
                .doesNotContainKey("fields.m.map.shared-shredding.column-placement-policy")
                .containsEntry("fields.m.strata-shredded.column-placement-policy", "stable");
        assertThat(ShreddingOptions.shreddedColumns(SCHEMA, moved).get("m").policy())
                .isEqualTo(PlacementPolicy.STABLE);
        assertThat(ShreddingOptions.withCurrentKeys(lru)).isSameAs(lru);
    }
}
