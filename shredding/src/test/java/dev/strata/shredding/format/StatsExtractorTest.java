package dev.strata.shredding.format;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.testing.maps.GeneratedMap;
import dev.strata.testing.maps.MapDataGenerator;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.paimon.io.DataFileMeta;
import org.apache.paimon.predicate.PredicateBuilder;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.source.DataSplit;
import org.apache.paimon.table.source.Split;
import org.junit.jupiter.api.Test;

/** Paimon keeps per-column statistics of shredded files, so its own file skipping still works. */
class StatsExtractorTest extends PaimonTablesTestBase {

    @Test
    void valueStatisticsOfShreddedFilesLetPaimonSkipFiles() throws Exception {
        FileStoreTable table =
                tables.create(
                        "stats",
                        PaimonTables.Kind.APPEND,
                        PaimonTables.layoutOptions(true, 4, "lru"),
                        Map.of("bucket", "1", "metadata.stats-mode", "full"));
        MapDataGenerator gen = MapDataGenerator.builder(5).keyUniverse(50).build();
        for (int b = 0; b < 3; b++) {
            List<Long> ids = new ArrayList<>();
            for (int i = 0; i < 100; i++) {
                ids.add(b * 1000L + i);
            }
            List<GeneratedMap> maps = gen.generate(ids.size());
            tables.write(table, ids, maps);
        }
        List<DataFileMeta> all = files(table, null);
        assertThat(all).hasSize(3);
        for (DataFileMeta f : all) {
            assertThat(f.rowCount()).isEqualTo(100);
            long min = f.valueStats().minValues().getLong(0);
            long max = f.valueStats().maxValues().getLong(0);
            assertThat(max - min).isEqualTo(99);
            assertThat(f.valueStats().nullCounts().getLong(0)).isZero();
        }
        PredicateBuilder pb = new PredicateBuilder(table.rowType());
        assertThat(files(table, pb.greaterOrEqual(0, 2000L))).hasSize(1);
        assertThat(files(table, pb.lessThan(0, 0L))).isEmpty();
    }

    private static List<DataFileMeta> files(
            FileStoreTable table, org.apache.paimon.predicate.Predicate filter) {
        List<DataFileMeta> out = new ArrayList<>();
        var rb = table.newReadBuilder();
        if (filter != null) {
            rb = rb.withFilter(filter);
        }
        for (Split s : rb.newScan().plan().splits()) {
            out.addAll(((DataSplit) s).dataFiles());
        }
        return out;
    }
}
