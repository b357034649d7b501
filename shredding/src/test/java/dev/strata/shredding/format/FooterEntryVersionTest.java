package dev.strata.shredding.format;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.shredding.ShreddedReadHandover;
import dev.strata.shredding.layout.FooterBlobs;
import dev.strata.shredding.layout.ShreddedColumnMeta;
import dev.strata.shredding.layout.ShreddingFooter;
import dev.strata.shredding.parquet.FileRoundTrip;
import dev.strata.shredding.parquet.PaimonFiles;
import dev.strata.shredding.parquet.ShreddedFooters;
import dev.strata.shredding.pushdown.MapPredicate;
import dev.strata.shredding.pushdown.MapPredicate.Op;
import dev.strata.testing.TestSeeds;
import dev.strata.testing.maps.GeneratedMap;
import dev.strata.testing.maps.MapDataGenerator;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.paimon.fs.Path;
import org.apache.paimon.table.FileStoreTable;
import org.junit.jupiter.api.Test;

/**
 * A data file whose Strata footer entry is intact but of another version than the one Strata reads
 * is read from Paimon's shared-shredding keys alone, as a file without the entry: through Paimon's
 * table read, with selected keys and with a pushed predicate, the rows equal the oracle's.
 */
class FooterEntryVersionTest extends PaimonTablesTestBase {

    @Test
    void filesWithAnEntryOfAnotherVersionAreReadFromPaimonsKeys() throws Exception {
        long seed = TestSeeds.seed("footerVersion");
        String why = TestSeeds.describe("footerVersion", seed);
        MapDataGenerator gen =
                MapDataGenerator.builder(seed).keyUniverse(200).keysPerRow(4, 12).build();
        FileStoreTable table =
                tables.create(
                        "t",
                        PaimonTables.Kind.APPEND,
                        PaimonTables.layoutOptions(true, 4, "lru"),
                        Map.of());
        FileStoreTable plain =
                tables.create(
                        "oracle",
                        PaimonTables.Kind.APPEND,
                        PaimonTables.layoutOptions(false, 0, null),
                        Map.of());
        List<GeneratedMap> all = new ArrayList<>();
        for (int batch = 0; batch < 3; batch++) {
            List<Long> ids = new ArrayList<>();
            for (int i = 0; i < 700; i++) {
                ids.add((long) all.size() + i);
            }
            List<GeneratedMap> maps = gen.generate(ids.size());
            tables.write(table, ids, maps);
            tables.write(plain, ids, maps);
            all.addAll(maps);
        }

        // Older versions and a newer one, each with a valid checksum; no file is read before.
        List<Path> files = PaimonTables.dataFiles(table, "parquet");
        assertThat(files).hasSizeGreaterThanOrEqualTo(3);
        int[] versions = {1, 2, 4};
        for (int i = 0; i < files.size(); i++) {
            java.nio.file.Path file = java.nio.file.Path.of(files.get(i).toUri());
            String value = FileRoundTrip.footerValue(file);
            byte[] blob = Base64.getDecoder().decode(value);
            assertThat(blob[4]).isEqualTo((byte) ShreddingFooter.VERSION);
            blob[4] = (byte) versions[i % versions.length];
            FooterBlobs.rechecksum(blob);
            String other = Base64.getEncoder().encodeToString(blob);
            assertThat(other).hasSameSizeAs(value);
            FileRoundTrip.replaceOnce(
                    file,
                    value.getBytes(StandardCharsets.US_ASCII),
                    other.getBytes(StandardCharsets.US_ASCII));
            ShreddedFooters.Opened opened =
                    ShreddedFooters.open(
                            PaimonFiles.inputFile(FileRoundTrip.IO, files.get(i), Files.size(file)),
                            files.get(i).toString(),
                            false);
            try {
                ShreddedColumnMeta meta = opened.metas.get("m");
                assertThat(meta).as("%s: read from Paimon's keys", file).isNotNull();
                assertThat(meta.zonesRecorded()).as("Strata's entry ignored").isFalse();
                assertThat(meta.placements()).isEmpty();
            } finally {
                opened.reader.close();
            }
        }

        assertThat(PaimonTables.readAll(table)).as(why).isEqualTo(PaimonTables.readAll(plain));

        List<String> universe = gen.keyUniverse();
        List<String> keys = List.of(universe.get(3), universe.get(120), "absent");
        Map<Long, List<String>> expectedSelected = new TreeMap<>();
        for (int i = 0; i < all.size(); i++) {
            expectedSelected.put((long) i, entries(all.get(i), keys));
        }
        assertThat(
                        PaimonTables.readAll(
                                table.copy(
                                        ShreddedReadHandover.encode(
                                                Map.of("m", keys), null, false))))
                .as(why + ": selected keys")
                .isEqualTo(expectedSelected);

        String key = universe.get(3);
        List<Double> present = new ArrayList<>();
        for (GeneratedMap g : all) {
            if (!g.isNull() && g.containsKey(key) && g.lookup(key) instanceof Double) {
                present.add((Double) g.lookup(key));
            }
        }
        assertThat(present).as(why + ": rows holding " + key).isNotEmpty();
        Collections.sort(present);
        double threshold = present.get(present.size() / 2);
        Map<Long, List<String>> full = PaimonTables.readAll(plain);
        Map<Long, List<String>> read =
                PaimonTables.readAll(
                        table.copy(
                                ShreddedReadHandover.encode(
                                        null,
                                        MapPredicate.leaf("m", key, Op.GT, threshold),
                                        true)));
        Map<Long, List<String>> matching = new TreeMap<>();
        for (int i = 0; i < all.size(); i++) {
            GeneratedMap g = all.get(i);
            Object v = g.isNull() || !g.containsKey(key) ? null : g.lookup(key);
            if (v instanceof Double && Double.compare((Double) v, threshold) > 0) {
                matching.put((long) i, full.get((long) i));
            }
        }
        assertThat(matching).as(why + ": rows over the threshold").isNotEmpty();
        // The reader may keep rows a Filter above drops, never drop one it keeps.
        Map<Long, List<String>> kept = new TreeMap<>(read);
        kept.keySet().retainAll(matching.keySet());
        assertThat(kept).as(why + ": " + key + " > " + threshold).isEqualTo(matching);
        read.forEach((id, row) -> assertThat(row).as(why + " row " + id).isEqualTo(full.get(id)));
    }

    private static List<String> entries(GeneratedMap g, List<String> keys) {
        if (g.isNull()) {
            return null;
        }
        List<String> out = new ArrayList<>();
        for (String k : keys) {
            if (g.containsKey(k)) {
                Object v = g.lookup(k);
                out.add(k + "=" + (v == null ? "null" : v));
            }
        }
        Collections.sort(out);
        return out;
    }
}
