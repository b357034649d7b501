package dev.strata.shredding.parquet;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.shredding.TestMaps;
import dev.strata.shredding.allocate.PlacementPolicy;
import dev.strata.shredding.layout.ArrowSchemaFooter;
import dev.strata.shredding.layout.ShreddedColumnMeta;
import dev.strata.shredding.layout.ShreddingFooter;
import dev.strata.shredding.pushdown.MapPredicate;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalMap;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The footer as the key universe grows: 40 000 rows of 40 keys each (key {@code hot} in every row,
 * the other 39 a row's family's consecutive keys {@code key_<f*40+i>}, families cycling by row id,
 * as in the scenario), with 2 000, 20 000 and 200 000 distinct keys, K = 44 and Paimon's
 * default placement (lru).
 *
 * <p>Paimon's {@code ARROW:schema} entry must hold the whole dictionary and S(id) of every id as
 * JSON (that is what a Paimon reader needs), so its size follows the data; Strata's own entry holds
 * only what Paimon lacks and must stay a small fraction of the file whatever the universe (in a
 * file a fifth of the README's 200 000 rows, a stricter bound). A query over the hot key answers
 * the same over every universe, and the same as the rows written.
 */
class FooterSizeTest {

    private static final int ROWS = 40_000;
    private static final int WIDTH = 40;

    @TempDir java.nio.file.Path tmp;

    /** The value of key slot {@code i} of row {@code id}: four decimals in [0, 100). */
    private static double value(long id, int i) {
        long h = (id * 40 + i) * 0x9E3779B97F4A7C15L;
        return Math.floorMod(h >>> 20, 1_000_000L) / 10_000.0;
    }

    private static InternalMap row(long id, int universe) {
        int families = universe / WIDTH;
        Object[] keys = new Object[WIDTH];
        Object[] values = new Object[WIDTH];
        keys[0] = BinaryString.fromString("hot");
        values[0] = value(id, 0);
        for (int i = 1; i < WIDTH; i++) {
            keys[i] = BinaryString.fromString("key_" + ((id % families) * WIDTH + i));
            values[i] = value(id, i);
        }
        return new ArrayBackedMap(keys, values);
    }

    private static final class Measured {
        long fileBytes;
        long strataBytes;
        long paimonBytes;
        long otherFooterBytes;
        int keys;
        String answer;
        double openMillis;
    }

    private Measured writeAndMeasure(int universe) throws Exception {
        java.nio.file.Path file = tmp.resolve("u" + universe + ".parquet");
        Path path = new Path(file.toUri().toString());
        List<Long> ids = new ArrayList<>(ROWS);
        for (long i = 0; i < ROWS; i++) {
            ids.add(i);
        }
        FileRoundTrip.write(
                path,
                TestMaps.idAndMap(),
                Map.of("m", 44),
                PlacementPolicy.LRU,
                new ShreddedParquetWriter.Settings(),
                ids,
                id -> GenericRow.of(id, row(id, universe)));
        Measured m = new Measured();
        m.fileBytes = Files.size(file);
        Map<String, String> kv = FileRoundTrip.footer(file);
        for (Map.Entry<String, String> e : kv.entrySet()) {
            long bytes =
                    e.getKey().length()
                            + e.getValue().getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
            if (e.getKey().equals(ShreddingFooter.footerKey("m"))) {
                m.strataBytes = bytes;
            } else if (e.getKey().equals(ArrowSchemaFooter.KEY)) {
                m.paimonBytes = bytes;
            } else {
                m.otherFooterBytes += bytes;
            }
        }
        long start = System.nanoTime();
        ShreddedFooters.Opened opened =
                ShreddedFooters.open(
                        PaimonFiles.inputFile(FileRoundTrip.IO, path, m.fileBytes),
                        path.toString(),
                        false);
        m.openMillis = (System.nanoTime() - start) / 1e6;
        ShreddedColumnMeta meta = opened.metas.get("m");
        opened.reader.close();
        m.keys = meta.keys().size();
        assertThat(meta.idOf("hot")).isEqualTo(0);
        assertThat(meta.zonesRecorded()).isTrue();

        MapPredicate p = MapPredicate.leaf("m", "hot", MapPredicate.Op.GT, 99.0);
        long count = 0;
        double sum = 0;
        for (InternalRow r :
                FileRoundTrip.read(path, TestMaps.idAndMap(), Map.of("m", List.of("hot")), p)
                        .rows) {
            InternalMap map = r.getMap(1);
            for (int i = 0; i < map.size(); i++) {
                if (map.keyArray().getString(i).toString().equals("hot")
                        && map.valueArray().getDouble(i) > 99.0) {
                    count++;
                    sum += map.valueArray().getDouble(i);
                }
            }
        }
        m.answer = count + "/" + String.format("%.4f", sum);
        Files.delete(file);
        return m;
    }

    @Test
    void strataEntryStaysSmallAndAnswersAreEqualAcrossKeyUniverses() throws Exception {
        long expectedCount = 0;
        double expectedSum = 0;
        for (long id = 0; id < ROWS; id++) {
            double v = value(id, 0);
            if (v > 99.0) {
                expectedCount++;
                expectedSum += v;
            }
        }
        String expected = expectedCount + "/" + String.format("%.4f", expectedSum);
        assertThat(expectedCount).as("the predicate selects some rows").isGreaterThan(200);
        for (int universe : new int[] {2_000, 20_000, 200_000}) {
            Measured m = writeAndMeasure(universe);
            double strata = 100.0 * m.strataBytes / m.fileBytes;
            double paimon = 100.0 * m.paimonBytes / m.fileBytes;
            double total =
                    100.0 * (m.strataBytes + m.paimonBytes + m.otherFooterBytes) / m.fileBytes;
            System.out.printf(
                    "[footer] universe=%d keys=%d file=%d B strata=%d B (%.2f%%) ARROW:schema=%d B (%.2f%%)"
                            + " other=%d B footer total %.2f%% open %.0f ms%n",
                    universe,
                    m.keys,
                    m.fileBytes,
                    m.strataBytes,
                    strata,
                    m.paimonBytes,
                    paimon,
                    m.otherFooterBytes,
                    total,
                    m.openMillis);
            assertThat(m.keys).isEqualTo(universe - universe / WIDTH + 1);
            assertThat(m.answer).as("hot > 99 over universe " + universe).isEqualTo(expected);
            assertThat(strata)
                    .as("Strata's own entry, %% of the file, universe %d", universe)
                    .isLessThanOrEqualTo(0.5);
        }
    }
}
