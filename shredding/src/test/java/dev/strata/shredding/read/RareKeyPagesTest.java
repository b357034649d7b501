package dev.strata.shredding.read;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.shredding.ShreddedReadMetrics;
import dev.strata.shredding.ShreddedReadMetrics.Counter;
import dev.strata.shredding.TestMaps;
import dev.strata.shredding.allocate.PlacementPolicy;
import dev.strata.shredding.parquet.FileRoundTrip;
import dev.strata.shredding.parquet.PaimonFiles;
import dev.strata.shredding.parquet.ShreddedParquetWriter;
import dev.strata.shredding.pushdown.MapPredicate;
import dev.strata.shredding.pushdown.MapPredicate.Op;
import dev.strata.testing.maps.GeneratedMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.fs.Path;
import org.apache.paimon.fs.PositionOutputStream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A rare key whose columns are shared with other keys (LRU placement, no usable ownership segments,
 * so the row group's {@code __field_mapping} is probed): the value columns decode only the rows the
 * mapping names the key in. Pages without such a row are passed undecoded (counted), rows inside
 * the pages holding the key are skipped by their levels, across NULL values of the other keys and
 * NULL maps, with PLAIN and with dictionary-encoded values. The oracle is the generated maps; a
 * page skipped that holds the key, or a value skipped wrongly inside a page, gives a wrong value or
 * a missing row.
 */
class RareKeyPagesTest {

    private static final int ROWS = 6000;
    private static final int GROUP_ROWS = 3000;
    private static final int PAGE_ROWS = 100;
    private static final int K = 8;

    /**
     * Rows holding the rare key: three in page 12 of the first group and the last row of its page
     * 25; in the second group its first row, one in page 13 and the file's last row.
     */
    private static final Set<Integer> RARE_ROWS = Set.of(1234, 1240, 1299, 2599, 3000, 4321, 5999);

    @TempDir java.nio.file.Path tmp;

    private static GeneratedMap map(int i, boolean fewValues) {
        if (i % 97 == 5) {
            return GeneratedMap.nullMap();
        }
        List<String> keys = new ArrayList<>();
        List<Object> values = new ArrayList<>();
        // Seven of 20 rotating keys, so every column holds many keys in turn.
        for (int j = 0; j < K - 1; j++) {
            keys.add("k" + (i + 3 * j) % 20);
            values.add(
                    (i + j) % 7 == 0
                            ? null
                            : (Object) (fewValues ? (double) ((i + j) % 5) : i + j / 10.0));
        }
        boolean rare = RARE_ROWS.contains(i);
        keys.add(rare ? "rare" : "k" + (i + 3 * (K - 1)) % 20);
        if (rare) {
            values.add(i == 1240 ? null : (Object) (fewValues ? (double) (i % 5) : i + 0.5));
        } else {
            values.add(fewValues ? 1.0 : (double) -i);
        }
        return GeneratedMap.of(keys, values);
    }

    @ParameterizedTest(name = "few distinct values (dictionary) = {0}, predicate = {1}")
    @CsvSource({"false, false", "false, true", "true, false", "true, true"})
    void onlyThePagesHoldingTheKeyAreDecoded(boolean fewValues, boolean predicate)
            throws Exception {
        List<GeneratedMap> maps = new ArrayList<>();
        for (int i = 0; i < ROWS; i++) {
            maps.add(map(i, fewValues));
        }
        Path path = new Path(tmp.toUri().toString(), "rare-" + fewValues + ".parquet");
        try (PositionOutputStream out = FileRoundTrip.IO.newOutputStream(path, true)) {
            // One ownership segment per column and group at most: the columns are "fragmented", so
            // the
            // reader must find the key's rows through __field_mapping.
            ShreddedParquetWriter w =
                    new ShreddedParquetWriter(
                            new PaimonFiles.StreamOutputFile(out, path.toString()),
                            TestMaps.idAndMap(),
                            Map.of(
                                    "m",
                                    new ShreddedParquetWriter.ColumnSpec(
                                            K, PlacementPolicy.LRU, 1)),
                            new ShreddedParquetWriter.Settings()
                                    .rowGroupRowLimit(GROUP_ROWS)
                                    .pageRowLimit(PAGE_ROWS));
            for (int i = 0; i < ROWS; i++) {
                w.write(GenericRow.of((long) i, TestMaps.toPaimon(maps.get(i))));
            }
            w.close();
        }
        MapPredicate pred = predicate ? MapPredicate.leaf("m", "rare", Op.GT_EQ, -1.0) : null;
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < ROWS; i++) {
            GeneratedMap g = maps.get(i);
            if (!g.isNull() && g.containsKey("rare") && (!predicate || g.lookup("rare") != null)) {
                expected.add(i + "=" + g.lookup("rare"));
            }
        }

        List<String> returned = new ArrayList<>();
        ShreddedReadMetrics.Snapshot s =
                KeyReads.read(
                        path,
                        "rare",
                        pred,
                        (rowId, m, r) -> {
                            GeneratedMap g = maps.get((int) rowId);
                            assertThat(m.isNullMap(r)).as("row %d", rowId).isEqualTo(g.isNull());
                            if (m.contains(0, r)) {
                                returned.add(
                                        rowId
                                                + "="
                                                + (m.isNullValue(0, r) ? null : m.getDouble(0, r)));
                            }
                        });
        assertThat(returned).isEqualTo(expected);
        assertThat(s.get(Counter.ROW_GROUPS_TOTAL)).isEqualTo(2);
        // A value column read in the first group holds the key in at most 2 of its 30 pages, in the
        // second
        // in at most 3: the others are passed.
        int pagesPerGroup = GROUP_ROWS / PAGE_ROWS;
        assertThat(s.get(Counter.VALUE_PAGES_SKIPPED))
                .as(s.toString())
                .isGreaterThanOrEqualTo(pagesPerGroup - 2 + pagesPerGroup - 3);
    }
}
