package dev.strata.shredding.read;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.shredding.ShreddedReadMetrics;
import dev.strata.shredding.TestMaps;
import dev.strata.shredding.parquet.FileRoundTrip;
import dev.strata.shredding.parquet.PaimonFiles;
import dev.strata.shredding.pushdown.MapPredicate;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.apache.paimon.fs.Path;
import org.apache.paimon.types.RowType;

/**
 * Reads one key of the map column {@code m} of a file (by default {@link TestMaps#idAndMap()})
 * through {@link ShreddedColumns} as the Spark columnar scan does, window by window, checking that
 * each returned row's absolute position is its {@code id}.
 */
final class KeyReads {

    private KeyReads() {}

    /** What a test checks of one returned row: its id and window row r of the key's field. */
    interface RowCheck {
        void accept(long id, ShreddedColumns.MapKeys m, int r);
    }

    /**
     * Reads {@code key} of {@code m} in the file at {@code path} with {@code predicate} pushed
     * (null: none), gives every returned row to {@code check}, and returns the read's counters.
     */
    static ShreddedReadMetrics.Snapshot read(
            Path path, String key, MapPredicate predicate, RowCheck check) throws IOException {
        return read(path, TestMaps.idAndMap(), key, predicate, check);
    }

    /** As above for a file of {@code rowType} (id BIGINT, then the map column {@code m}). */
    static ShreddedReadMetrics.Snapshot read(
            Path path, RowType rowType, String key, MapPredicate predicate, RowCheck check)
            throws IOException {
        try (ShreddedReadMetrics.Scope scope = ShreddedReadMetrics.collect();
                ShreddedColumns columns =
                        new ShreddedColumns(
                                PaimonFiles.inputFile(
                                        FileRoundTrip.IO, path, FileRoundTrip.IO.getFileSize(path)),
                                path.toString(),
                                rowType,
                                Map.of("m", List.of(key)),
                                predicate,
                                true)) {
            assertThat(columns.readable()).isTrue();
            ShreddedColumns.Primitive id = (ShreddedColumns.Primitive) columns.field(0);
            ShreddedColumns.MapKeys m = (ShreddedColumns.MapKeys) columns.field(1);
            int n;
            while ((n = columns.nextWindow()) > 0) {
                for (int x = 0; x < n; x++) {
                    int r = columns.row(x);
                    long rowId = id.getLong(r);
                    assertThat(columns.position(x)).isEqualTo(rowId);
                    check.accept(rowId, m, r);
                }
            }
            return scope.snapshot();
        }
    }
}
