package dev.strata.shredding.read;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.shredding.TestMaps;
import dev.strata.shredding.allocate.PlacementPolicy;
import dev.strata.shredding.layout.ShreddedColumnMeta;
import dev.strata.shredding.parquet.FileRoundTrip;
import dev.strata.shredding.parquet.GroupKeyPlan;
import dev.strata.shredding.parquet.PaimonFiles;
import dev.strata.shredding.parquet.ShreddedFooters;
import dev.strata.shredding.parquet.ShreddedParquetWriter;
import dev.strata.shredding.pushdown.MapPredicate;
import dev.strata.shredding.pushdown.MapPredicate.Op;
import dev.strata.testing.TestSeeds;
import dev.strata.testing.maps.GeneratedMap;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.IntStream;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.fs.Path;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.schema.GroupType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Row groups whose placement is not recorded (too many distinct keys for the footer's budget, as in
 * wide maps over a large key universe): a key that alone uses its columns in the file's S and O
 * (here {@code cpu}, first in every row) is read without {@code __field_mapping}, with absent keys,
 * NULL values and NULL maps; keys sharing columns still go through the mapping. The oracle is the
 * generated maps.
 */
class FileLevelOwnershipTest {

    private static final int ROWS = 4000;
    private static final int GROUP_ROWS = 1000;
    private static final int K = 8;

    @TempDir java.nio.file.Path tmp;

    private static List<GeneratedMap> maps() {
        Random random = TestSeeds.random("FileLevelOwnershipTest");
        List<GeneratedMap> maps = new ArrayList<>();
        for (int i = 0; i < ROWS; i++) {
            if (i % 53 == 7) {
                maps.add(GeneratedMap.nullMap());
                continue;
            }
            List<String> keys = new ArrayList<>();
            List<Object> values = new ArrayList<>();
            keys.add("cpu");
            values.add(i % 11 == 3 ? null : (Object) (double) i);
            // Tail keys from a universe far larger than a group's placement budget can list.
            Set<String> tail = new LinkedHashSet<>();
            while (tail.size() < K - 2) {
                tail.add("u" + random.nextInt(20_000));
            }
            for (String t : tail) {
                keys.add(t);
                values.add(random.nextInt(1000) / 10.0);
            }
            if (i % 3 != 0) {
                keys.add("t" + (i % 7));
                values.add((double) -i);
            }
            maps.add(GeneratedMap.of(keys, values));
        }
        return maps;
    }

    @Test
    void aKeyAloneInItsColumnsIsReadWithoutTheMappingWhereNoPlacementIsRecorded() throws Exception {
        List<GeneratedMap> maps = maps();
        Path path = new Path(tmp.toUri().toString(), "wide.parquet");
        FileRoundTrip.write(
                path,
                TestMaps.idAndMap(),
                Map.of("m", K),
                PlacementPolicy.LRU,
                new ShreddedParquetWriter.Settings().rowGroupRowLimit(GROUP_ROWS),
                IntStream.range(0, ROWS).boxed().toList(),
                i -> GenericRow.of((long) i, TestMaps.toPaimon(maps.get(i))));

        long length = FileRoundTrip.IO.getFileSize(path);
        ShreddedFooters.Opened opened =
                ShreddedFooters.open(
                        PaimonFiles.inputFile(FileRoundTrip.IO, path, length),
                        path.toString(),
                        false);
        try (org.apache.parquet.hadoop.ParquetFileReader reader = opened.reader) {
            ShreddedColumnMeta meta = opened.metas.get("m");
            List<BlockMetaData> blocks = reader.getFooter().getBlocks();
            GroupType physical =
                    reader.getFooter().getFileMetaData().getSchema().getType("m").asGroupType();
            // What the test is about: no group recorded a placement, cpu alone uses its column.
            assertThat(blocks).hasSize(ROWS / GROUP_ROWS);
            for (int g = 0; g < blocks.size(); g++) {
                assertThat(meta.placement(g)).as("placement of group %d", g).isNull();
            }
            int cpu = meta.idOf("cpu");
            assertThat(meta.columnsOf(cpu)).hasSize(1);
            assertThat(meta.filePlacement().ownsItsColumns(cpu)).isTrue();
            String shared = "t3";
            assertThat(meta.filePlacement().ownsItsColumns(meta.idOf(shared))).isFalse();
            for (int g = 0; g < blocks.size(); g++) {
                assertThat(
                                GroupKeyPlan.of(physical, meta, List.of("cpu"), g, blocks.get(g))
                                        .mappingNeeded())
                        .as("cpu in group %d", g)
                        .isFalse();
                assertThat(
                                GroupKeyPlan.of(
                                                physical,
                                                meta,
                                                List.of("cpu", shared),
                                                g,
                                                blocks.get(g))
                                        .mappingNeeded())
                        .as("cpu and %s in group %d", shared, g)
                        .isTrue();
            }
        }

        for (String key : List.of("cpu", "t3")) {
            for (MapPredicate predicate :
                    new MapPredicate[] {null, MapPredicate.leaf("m", key, Op.GT, 1500.0)}) {
                List<String> expected = new ArrayList<>();
                for (int i = 0; i < ROWS; i++) {
                    GeneratedMap g = maps.get(i);
                    if (g.isNull() || !g.containsKey(key)) {
                        continue;
                    }
                    Object v = g.lookup(key);
                    if (predicate == null || (v != null && (double) v > 1500.0)) {
                        expected.add(i + "=" + v);
                    }
                }
                List<String> returned = new ArrayList<>();
                KeyReads.read(
                        path,
                        key,
                        predicate,
                        (rowId, m, r) -> {
                            GeneratedMap g = maps.get((int) rowId);
                            assertThat(m.isNullMap(r)).as("row %d", rowId).isEqualTo(g.isNull());
                            if (m.contains(0, r) && !m.isNullValue(0, r)) {
                                returned.add(rowId + "=" + m.getDouble(0, r));
                            } else if (m.contains(0, r) || (!g.isNull() && g.containsKey(key))) {
                                // a NULL value reads as absent without the mapping: either way NULL
                                assertThat(g.lookup(key)).as("row %d", rowId).isNull();
                                if (predicate == null) {
                                    returned.add(rowId + "=null");
                                }
                            }
                        });
                assertThat(returned).as("%s, predicate %s", key, predicate).isEqualTo(expected);
            }
        }
    }
}
