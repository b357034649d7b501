package dev.strata.shredding.parquet;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.shredding.ShreddedReadMetrics;
import dev.strata.shredding.ShreddedReadMetrics.Counter;
import dev.strata.shredding.TestMaps;
import dev.strata.shredding.allocate.PlacementPolicy;
import dev.strata.shredding.pushdown.MapPredicate;
import dev.strata.shredding.pushdown.MapPredicate.Op;
import dev.strata.testing.maps.GeneratedMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Page-level (ColumnIndex) filtering for keys outside the overflow keeps absolute row positions.
 */
class PageFilterTest {

    @TempDir java.nio.file.Path tmp;

    @Test
    void pagesThatCannotMatchAreDroppedAndPositionsStayAbsolute() throws Exception {
        int rows = 4000;
        List<GeneratedMap> maps = new ArrayList<>();
        for (int i = 0; i < rows; i++) {
            maps.add(
                    i % 10 == 9
                            ? GeneratedMap.nullMap()
                            : GeneratedMap.of(
                                    List.of("a", "b"), List.of((double) i, 100_000.0 + i)));
        }
        Path path = new Path(tmp.toUri().toString(), "pages.parquet");
        List<Integer> ids = new ArrayList<>();
        for (int i = 0; i < rows; i++) {
            ids.add(i);
        }
        FileRoundTrip.write(
                path,
                TestMaps.idAndMap(),
                Map.of("m", 4),
                PlacementPolicy.PLAIN,
                new ShreddedParquetWriter.Settings().pageRowLimit(100),
                ids,
                i -> GenericRow.of((long) i, TestMaps.toPaimon(maps.get(i))));

        MapPredicate pred = MapPredicate.leaf("m", "a", Op.LT, 250.0);
        FileRoundTrip.Read read;
        ShreddedReadMetrics.Snapshot s;
        try (ShreddedReadMetrics.Scope scope = ShreddedReadMetrics.collect()) {
            read = FileRoundTrip.read(path, TestMaps.idAndMap(), null, pred);
            s = scope.snapshot();
        }
        assertThat(s.get(Counter.ROW_GROUPS_TOTAL)).isEqualTo(1);
        assertThat(s.get(Counter.ROW_GROUPS_SKIPPED)).isZero();
        assertThat(s.get(Counter.ROWS_SKIPPED_BY_PAGE_INDEX))
                .as(s.toString())
                .isGreaterThanOrEqualTo(3000);
        List<Long> returned = new ArrayList<>();
        for (int i = 0; i < read.rows.size(); i++) {
            long id = read.rows.get(i).getLong(0);
            assertThat(read.positions.get(i)).isEqualTo(id);
            returned.add(id);
        }
        for (long i = 0; i < 250; i++) {
            if (i % 10 != 9) {
                assertThat(returned).contains(i);
            }
        }
        assertThat(returned.size()).isLessThan(1000);
    }
}
