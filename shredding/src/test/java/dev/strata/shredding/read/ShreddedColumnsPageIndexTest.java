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
import dev.strata.testing.TestSeeds;
import dev.strata.testing.io.FailingFileIO;
import dev.strata.testing.maps.GeneratedMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.fs.Path;
import org.apache.paimon.fs.local.LocalFileIO;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowType;
import org.apache.paimon.utils.RoaringBitmap32;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The columnar reader skips the pages the column index rules out for the pushed predicate, in every
 * row group, over several row ranges of one group, and still returns each matching row with its own
 * values and absolute position.
 */
class ShreddedColumnsPageIndexTest {

    private static final int ROWS = 4000;

    @TempDir java.nio.file.Path tmp;

    @Test
    void pagesOutsideThePredicatesRowRangesAreSkipped() throws Exception {
        List<GeneratedMap> maps = new ArrayList<>();
        List<Integer> ids = new ArrayList<>();
        for (int i = 0; i < ROWS; i++) {
            maps.add(
                    i % 10 == 9
                            ? GeneratedMap.nullMap()
                            : GeneratedMap.of(
                                    List.of("a", "b"), List.of((double) i, 100_000.0 + i)));
            ids.add(i);
        }
        Path path = new Path(tmp.toUri().toString(), "pages.parquet");
        FileRoundTrip.write(
                path,
                TestMaps.idAndMap(),
                Map.of("m", 4),
                PlacementPolicy.PLAIN,
                new ShreddedParquetWriter.Settings().rowGroupRowLimit(2500).pageRowLimit(100),
                ids,
                i -> GenericRow.of((long) i, TestMaps.toPaimon(maps.get(i))));
        // Rows 0 .. 249 and 2000 .. 2001: two row ranges of the first group (rows 0 .. 2499); 2750:
        // one of the
        // second. (Only leaves the page index can decide for doubles: GT and GT_EQ are not, for
        // NaN.)
        MapPredicate pred =
                MapPredicate.or(
                        MapPredicate.leaf("m", "a", Op.LT, 250.0),
                        MapPredicate.leaf("m", "a", Op.IN, 2000.0, 2001.0),
                        MapPredicate.leaf("m", "a", Op.EQ, 2750.0));
        List<Long> expected = new ArrayList<>();
        for (long i = 0; i < ROWS; i++) {
            if (i % 10 != 9 && (i < 250 || i == 2000 || i == 2001 || i == 2750)) {
                expected.add(i);
            }
        }

        List<Long> returned = new ArrayList<>();
        ShreddedReadMetrics.Snapshot s =
                KeyReads.read(
                        path,
                        "a",
                        pred,
                        (rowId, m, r) -> {
                            assertThat(m.contains(0, r)).isTrue();
                            assertThat(m.getDouble(0, r)).isEqualTo((double) rowId);
                            returned.add(rowId);
                        });
        assertThat(returned).isEqualTo(expected);
        assertThat(s.get(Counter.ROW_GROUPS_TOTAL)).isEqualTo(2);
        // Pages of 100 rows: 3 + 1 of the first group's 25 are read, 1 of the second's 15.
        assertThat(s.get(Counter.ROWS_SKIPPED_BY_PAGE_INDEX))
                .as(s.toString())
                .isEqualTo(ROWS - 5 * 100);
    }

    @Test
    void aKeyAbsentFromTheFileBesideAPredicateOnAnotherMapReadsAsNull() throws Exception {
        // The absent key's group reads only a value column for the map's NULL-ness, a column the
        // file-level request did not name; the pushed predicate on the other map narrows the
        // group to a few pages, which parquet-mr reads through its per-group offset indexes.
        RowType type =
                RowType.of(
                        new DataType[] {
                            DataTypes.BIGINT(),
                            DataTypes.MAP(DataTypes.STRING(), DataTypes.DOUBLE()),
                            DataTypes.MAP(DataTypes.STRING(), DataTypes.DOUBLE())
                        },
                        new String[] {"id", "m", "n"});
        List<Integer> ids = new ArrayList<>();
        for (int i = 0; i < ROWS; i++) {
            ids.add(i);
        }
        Path path = new Path(tmp.toUri().toString(), "absent.parquet");
        FileRoundTrip.write(
                path,
                type,
                Map.of("m", 2, "n", 2),
                PlacementPolicy.PLAIN,
                new ShreddedParquetWriter.Settings().rowGroupRowLimit(2500).pageRowLimit(100),
                ids,
                i ->
                        GenericRow.of(
                                (long) i,
                                TestMaps.toPaimon(
                                        GeneratedMap.of(List.of("a"), List.of((double) i))),
                                TestMaps.toPaimon(
                                        GeneratedMap.of(List.of("x"), List.of(-(double) i)))));
        List<Long> found = new ArrayList<>();
        LocalFileIO io = LocalFileIO.create();
        try (ShreddedColumns c =
                new ShreddedColumns(
                        PaimonFiles.inputFile(io, path, io.getFileSize(path)),
                        path.toString(),
                        type,
                        Map.of("m", List.of("a"), "n", List.of("zz")),
                        MapPredicate.leaf("m", "a", Op.EQ, 2750.0),
                        false)) {
            int n;
            while ((n = c.nextWindow()) > 0) {
                ShreddedColumns.MapKeys m = (ShreddedColumns.MapKeys) c.field(1);
                ShreddedColumns.MapKeys absent = (ShreddedColumns.MapKeys) c.field(2);
                for (int i = 0; i < n; i++) {
                    int r = c.row(i);
                    if (m.valueChunk(0, r) != null) {
                        assertThat(absent.valueChunk(0, r)).isNull();
                        found.add(c.position(i));
                    }
                }
            }
        }
        assertThat(found).containsExactly(2750L);
    }

    @Test
    void aSelectionOfFewRowsReadsOnlyTheirPages() throws Exception {
        int rows = 60_000;
        List<Integer> ids = new ArrayList<>();
        for (int i = 0; i < rows; i++) {
            ids.add(i);
        }
        // Values that do not compress, so that pages, not footers and indexes, make the file.
        double[] noise = TestSeeds.random("selected-pages").doubles(rows).toArray();
        Path path = new Path(tmp.toUri().toString(), "selected.parquet");
        FileRoundTrip.write(
                path,
                TestMaps.idAndMap(),
                Map.of("m", 4),
                PlacementPolicy.LRU,
                new ShreddedParquetWriter.Settings().rowGroupRowLimit(40_000).pageRowLimit(1_000),
                ids,
                i ->
                        GenericRow.of(
                                (long) i,
                                TestMaps.toPaimon(
                                        GeneratedMap.of(
                                                List.of("a", "b" + i % 7),
                                                List.of(noise[i], -noise[i])))));
        FileRoundTrip.Read all = FileRoundTrip.read(path, TestMaps.idAndMap(), Map.of(), null);
        // Rows of both row groups, two of them neighbours, one the last.
        FailingFileIO io = new FailingFileIO(); // armed to count bytes read only
        long length = io.getFileSize(path);
        io.arm(Long.MAX_VALUE);
        List<Long> positions = new ArrayList<>();
        try (ShreddedParquetReader reader =
                new ShreddedParquetReader(
                        PaimonFiles.inputFile(io, path, length),
                        path.toString(),
                        TestMaps.idAndMap(),
                        Map.of(),
                        null,
                        RoaringBitmap32.bitmapOf(3, 4, 9_999, 40_000, 59_999))) {
            InternalRow row;
            while ((row = reader.next()) != null) {
                int p = Math.toIntExact(reader.position());
                positions.add(reader.position());
                assertThat(row.getLong(0)).isEqualTo(all.rows.get(p).getLong(0));
                assertThat(row.getMap(1).keyArray().getString(1))
                        .isEqualTo(all.rows.get(p).getMap(1).keyArray().getString(1));
                assertThat(row.getMap(1).valueArray().getDouble(0))
                        .isEqualTo(all.rows.get(p).getMap(1).valueArray().getDouble(0));
            }
        }
        assertThat(positions).containsExactly(3L, 4L, 9_999L, 40_000L, 59_999L);
        // The footer, the offset indexes and one page a column for each row, not the chunks.
        assertThat(io.bytesRead())
                .as("bytes read of a %d-byte file", length)
                .isLessThan(length / 5);
    }
}
