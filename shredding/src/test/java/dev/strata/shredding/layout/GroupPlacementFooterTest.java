package dev.strata.shredding.layout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.strata.shredding.io.DamagedFileException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.Base64;
import java.util.BitSet;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Per-row-group placements (S_g, O_g) in the footer: round trip, completion from Paimon's keys,
 * entries of another version, corruption.
 */
class GroupPlacementFooterTest {

    private static KeyZones zone(long rows) {
        return new KeyZones(
                rows,
                false,
                new int[0],
                new int[0],
                new int[0],
                new int[0],
                new Object[0],
                new Object[0]);
    }

    private static ShreddedColumnMeta meta() {
        BitSet o = new BitSet();
        o.set(2);
        GroupPlacement g0 =
                new GroupPlacement(
                        3, new int[] {0, 1, 300}, new int[][] {{0}, {1, 2}, {2}}, new int[] {2});
        GroupPlacement g2 =
                new GroupPlacement(
                        3,
                        new int[] {2, 5},
                        new int[][] {{1}, {1, 2}},
                        new int[0],
                        new int[][] {{}, {0, 3, 2, 4, 2, 5}, null});
        return new ShreddedColumnMeta(
                3,
                4,
                ValueKind.LONG,
                List.of("a", "b", "c"),
                new int[][] {{0}, {1, 2}, {1}},
                o,
                List.of(zone(10), zone(5), zone(7)),
                Arrays.asList(g0, null, g2));
    }

    @Test
    void placementsRoundTripIncludingUnrecordedGroups() {
        ShreddedColumnMeta back =
                ShreddingFooter.decode(
                        ShreddingFooter.encode(meta()), GroupPlacementFooterTest::meta, "m", "f");
        assertThat(back.placements()).hasSize(3);
        assertThat(back.placements()).isEqualTo(meta().placements());
        assertThat(back.placement(1)).isNull();
        GroupPlacement g0 = back.placement(0);
        assertThat(g0.columnsOf(1)).containsExactly(1, 2);
        assertThat(g0.columnsOf(300)).containsExactly(2);
        assertThat(g0.columnsOf(7)).isEmpty();
        assertThat(g0.overflows(2)).isTrue();
        assertThat(g0.ownerOf(0)).isEqualTo(0);
        assertThat(g0.ownerOf(1)).isEqualTo(1);
        assertThat(g0.ownerOf(2)).isEqualTo(GroupPlacement.SHARED);
        assertThat(g0.ownsItsColumns(0)).isTrue();
        assertThat(g0.ownsItsColumns(1)).as("column 2 is shared with id 300").isFalse();
        assertThat(g0.ownsItsColumns(2)).as("id 2 overflowed in the group").isFalse();
        GroupPlacement g2 = back.placement(2);
        assertThat(g2.ownerOf(0)).isEqualTo(GroupPlacement.EMPTY);
        assertThat(g2.ownsItsColumns(2)).as("column 1 holds ids 2 and 5 in the group").isFalse();
        assertThat(g2.hasSegments()).isTrue();
        assertThat(g2.segmentsOf(1)).containsExactly(0, 3, 2, 4, 2, 5);
        assertThat(g2.rangesOf(1, 2)).containsExactly(0, 3);
        assertThat(g2.rangesOf(1, 5)).containsExactly(4, 6);
        assertThat(g2.rangesOf(0, 2)).isEmpty();
        assertThat(g2.rangesOf(2, 5)).as("fragmented column").isNull();
        assertThat(g0.hasSegments()).isFalse();
        assertThat(g0.rangesOf(0, 0)).isNull();
        assertThat(g2.ownsItsColumns(0))
                .as("absent from the group: no columns, not in O_g")
                .isTrue();
    }

    @Test
    void takesKeysSAndOFromPaimonsLayoutAndRefusesOneThatDoesNotMatch() {
        String v3 = ShreddingFooter.encode(meta());
        assertThat(Base64.getDecoder().decode(v3)[4]).isEqualTo((byte) 3);
        // The keys are Paimon's: decoding against another dictionary of the same size yields that
        // dictionary.
        BitSet o = new BitSet();
        o.set(2);
        ShreddedColumnMeta paimon =
                ShreddedColumnMeta.withoutZones(
                        3,
                        4,
                        ValueKind.NONE,
                        List.of("x", "y", "z"),
                        new int[][] {{0}, {1, 2}, {1}},
                        o);
        ShreddedColumnMeta back = ShreddingFooter.decode(v3, () -> paimon, "m", "f");
        assertThat(back.keys()).containsExactly("x", "y", "z");
        assertThat(back.valueKind()).as("from Strata's entry").isEqualTo(ValueKind.LONG);
        assertThat(back.zones()).hasSize(3);
        assertThat(back.zones().get(2).rowCount()).isEqualTo(7);
        assertThat(back.zonesRecorded()).isTrue();
        assertThat(back.placements()).isEqualTo(meta().placements());
        assertThat(back.idOf("y")).isEqualTo(1);

        ShreddedColumnMeta otherK =
                ShreddedColumnMeta.withoutZones(
                        4,
                        4,
                        ValueKind.NONE,
                        List.of("x", "y", "z"),
                        new int[][] {{0}, {1, 2}, {1}},
                        o);
        assertThatThrownBy(() -> ShreddingFooter.decode(v3, () -> otherK, "m", "mixed-file"))
                .isInstanceOf(UncheckedIOException.class)
                .hasCauseInstanceOf(DamagedFileException.class)
                .hasMessageContaining("mixed-file")
                .hasMessageContaining("K=3")
                .hasMessageContaining("K=4");
        assertThatThrownBy(() -> ShreddingFooter.paimonLayout(null, "m", "no-arrow-file"))
                .isInstanceOf(UncheckedIOException.class)
                .hasCauseInstanceOf(DamagedFileException.class)
                .hasMessageContaining("no-arrow-file")
                .hasMessageContaining("has no shared-shredding keys");
    }

    @Test
    void zoneIdsAreDeltasAndStayInTheDictionary() {
        KeyZones z =
                new KeyZones(
                        4,
                        false,
                        new int[] {0, 2},
                        new int[] {3, 1},
                        new int[] {0, 0},
                        new int[] {0, 0},
                        new Object[] {1L, 5L},
                        new Object[] {9L, 5L});
        ShreddedColumnMeta m =
                new ShreddedColumnMeta(
                        2,
                        2,
                        ValueKind.LONG,
                        List.of("a", "b", "c"),
                        new int[][] {{0}, {1}, {0}},
                        new BitSet(),
                        List.of(z),
                        List.of());
        ShreddedColumnMeta back =
                ShreddingFooter.decode(ShreddingFooter.encode(m), () -> m, "m", "f");
        KeyZones b = back.zones().get(0);
        assertThat(b.find(0)).isEqualTo(0);
        assertThat(b.find(2)).isEqualTo(1);
        assertThat(b.find(1)).isEqualTo(-1);
        assertThat(b.min(1)).isEqualTo(5L);
        assertThat(b.max(0)).isEqualTo(9L);
        assertThat(b.presentCount(0)).isEqualTo(3);
        ShreddedColumnMeta smaller =
                ShreddedColumnMeta.withoutZones(
                        2,
                        2,
                        ValueKind.NONE,
                        List.of("a", "b"),
                        new int[][] {{0}, {1}},
                        new BitSet());
        assertThatThrownBy(
                        () ->
                                ShreddingFooter.decode(
                                        ShreddingFooter.encode(m), () -> smaller, "m", "f2"))
                .hasMessageContaining("3 keys")
                .hasMessageContaining("2 keys")
                .hasMessageContaining("f2");
    }

    @Test
    void placementsOverTheByteBudgetLoseTheirSegmentsThenAreDropped() {
        // 1 000 rows: a budget of max(4 096, 2 x 1 000) bytes. Column 0 alternates between ids 0
        // and 1 every row
        // (1 000 one-row segments, ~3 000 bytes), column 1 holds id 2 throughout.
        int rows = 1000;
        int[] seg0 = new int[3 * rows];
        for (int r = 0; r < rows; r++) {
            seg0[3 * r] = r;
            seg0[3 * r + 1] = 1;
            seg0[3 * r + 2] = r % 2;
        }
        int[][] segments = {seg0, {0, rows, 2}};
        GroupPlacement fits =
                new GroupPlacement(
                        2, new int[] {0, 1, 2}, new int[][] {{0}, {0}, {1}}, new int[0], segments);
        int[][] twice = {Arrays.copyOf(seg0, seg0.length), {0, rows, 2}};
        int[] more = new int[6 * rows];
        for (int r = 0; r < 2 * rows; r++) {
            more[3 * r] = r;
            more[3 * r + 1] = 1;
            more[3 * r + 2] = r % 2;
        }
        twice[0] = more;
        GroupPlacement segmentsTooLarge =
                new GroupPlacement(
                        2, new int[] {0, 1, 2}, new int[][] {{0}, {0}, {1}}, new int[0], twice);
        int n = 5000;
        int[] ids = new int[n];
        int[][] cols = new int[n][];
        for (int i = 0; i < n; i++) {
            ids[i] = i;
            cols[i] = new int[] {i % 2};
        }
        GroupPlacement tooLarge = new GroupPlacement(2, ids, cols, new int[0]);
        List<String> keys = new java.util.ArrayList<>();
        int[][] fileCols = new int[n][];
        for (int i = 0; i < n; i++) {
            keys.add("k" + i);
            fileCols[i] = new int[] {0, 1};
        }
        ShreddedColumnMeta m =
                new ShreddedColumnMeta(
                        2,
                        2,
                        ValueKind.LONG,
                        keys,
                        fileCols,
                        new BitSet(),
                        List.of(zone(rows), zone(2 * rows), zone(rows)),
                        Arrays.asList(fits, segmentsTooLarge, tooLarge));
        ShreddedColumnMeta back =
                ShreddingFooter.decode(ShreddingFooter.encode(m), () -> m, "m", "f");
        assertThat(back.placement(0)).isEqualTo(fits);
        assertThat(back.placement(0).hasSegments()).isTrue();
        GroupPlacement noSegments = back.placement(1);
        assertThat(noSegments.hasSegments())
                .as("over the budget with segments, within it without")
                .isFalse();
        assertThat(noSegments.columnsOf(2)).containsExactly(1);
        assertThat(noSegments.ownsItsColumns(2)).isTrue();
        assertThat(noSegments.ownsItsColumns(0)).isFalse();
        assertThat(back.placement(2)).as("S_g alone over the budget").isNull();
    }

    @Test
    void aPlacementEqualToTheFilesSAndOIsStoredAsAReference() {
        int n = 3000;
        List<String> keys = new java.util.ArrayList<>();
        int[][] cols = new int[n][];
        int[] ids = new int[n - 1];
        int[][] groupCols = new int[n - 1][];
        BitSet o = new BitSet();
        o.set(n - 1);
        for (int i = 0; i < n; i++) {
            keys.add("k" + i);
            cols[i] = i == n - 1 ? new int[0] : new int[] {i % 4, 4 + i % 3};
            if (i < n - 1) {
                ids[i] = i;
                groupCols[i] = cols[i];
            }
        }
        GroupPlacement same =
                new GroupPlacement(
                        8,
                        ids,
                        groupCols,
                        new int[] {n - 1},
                        new int[][] {null, {0, 10, 1}, null, null, null, null, null, null});
        ShreddedColumnMeta m =
                new ShreddedColumnMeta(
                        8, 3, ValueKind.DOUBLE, keys, cols, o, List.of(zone(10)), List.of(same));
        String v3 = ShreddingFooter.encode(m);
        ShreddedColumnMeta back = ShreddingFooter.decode(v3, () -> m, "m", "f");
        assertThat(back.placement(0)).isEqualTo(same);
        assertThat(back.placement(0).segmentsOf(1)).containsExactly(0, 10, 1);
        assertThat(back.placement(0).overflows(n - 1)).isTrue();
        assertThat(v3.length()).as("no per-id lists in the blob").isLessThan(200);
        // One column differing from the file's S: stored explicitly.
        int[][] other = groupCols.clone();
        other[5] = new int[] {5 % 4};
        GroupPlacement differs = new GroupPlacement(8, ids, other, new int[] {n - 1});
        ShreddedColumnMeta m2 =
                new ShreddedColumnMeta(
                        8,
                        3,
                        ValueKind.DOUBLE,
                        keys,
                        cols,
                        o,
                        List.of(zone(10000)),
                        List.of(differs));
        assertThat(
                        ShreddingFooter.decode(ShreddingFooter.encode(m2), () -> m2, "m", "f")
                                .placement(0))
                .isEqualTo(differs);
    }

    @Test
    void corruptPlacementsAreClearErrorsNamingTheFile() {
        byte[] blob = Base64.getDecoder().decode(ShreddingFooter.encode(meta()));
        byte[] flipped = blob.clone();
        flipped[flipped.length - 7] ^= 0x10;
        assertThatThrownBy(
                        () ->
                                ShreddingFooter.decode(
                                        Base64.getEncoder().encodeToString(flipped),
                                        GroupPlacementFooterTest::meta,
                                        "m",
                                        "bad-file"))
                .isInstanceOf(UncheckedIOException.class)
                .hasCauseInstanceOf(DamagedFileException.class)
                .hasMessageContaining("checksum failed")
                .hasMessageContaining("bad-file");

        // A well-checksummed payload whose placement names column 5 of a K = 3 file.
        GroupPlacement wide = new GroupPlacement(6, new int[] {0}, new int[][] {{5}}, new int[0]);
        ShreddedColumnMeta bad =
                new ShreddedColumnMeta(
                        3,
                        1,
                        ValueKind.LONG,
                        List.of("a"),
                        new int[][] {{0}},
                        new BitSet(),
                        List.of(zone(1)),
                        List.of(wide));
        String text = ShreddingFooter.encode(bad);
        assertThatThrownBy(() -> ShreddingFooter.decode(text, () -> bad, "m", "wide-file"))
                .isInstanceOf(UncheckedIOException.class)
                .hasCauseInstanceOf(DamagedFileException.class)
                .hasMessageContaining("wide-file")
                .hasMessageContaining("row group 0")
                .hasMessageContaining("malformed payload");

        // Overlapping segments are refused when read.
        GroupPlacement overlapping =
                new GroupPlacement(
                        1, new int[] {0}, new int[][] {{0}}, new int[0], new int[][] {{0, 5, 0}});
        ShreddedColumnMeta good =
                new ShreddedColumnMeta(
                        1,
                        1,
                        ValueKind.LONG,
                        List.of("a"),
                        new int[][] {{0}},
                        new BitSet(),
                        List.of(zone(9)),
                        List.of(overlapping));
        byte[] ok = Base64.getDecoder().decode(ShreddingFooter.encode(good));
        assertThat(
                        ShreddingFooter.decode(
                                        Base64.getEncoder().encodeToString(ok),
                                        () -> good,
                                        "m",
                                        "f")
                                .placement(0)
                                .segmentsOf(0))
                .containsExactly(0, 5, 0);
        assertThatThrownBy(
                        () ->
                                new GroupPlacement(
                                        1,
                                        new int[] {0},
                                        new int[][] {{0}},
                                        new int[0],
                                        new int[][] {{0, 5, 0, 3, 2, 0}}))
                .hasMessageContaining("overlaps");
    }

    @Test
    void anIntactEntryOfAnotherVersionCountsAsNoEntryButADamagedOneIsDamage() {
        byte[] blob = Base64.getDecoder().decode(ShreddingFooter.encode(meta()));
        for (int version : new int[] {1, 2, 4, 9}) {
            byte[] other = blob.clone();
            other[4] = (byte) version;
            FooterBlobs.rechecksum(other);
            assertThat(
                            ShreddingFooter.decode(
                                    Base64.getEncoder().encodeToString(other),
                                    () -> {
                                        throw new AssertionError("Paimon's keys are not needed");
                                    },
                                    "m",
                                    "other-version-file"))
                    .as("version %d", version)
                    .isNull();
        }
        byte[] unchecked = blob.clone();
        unchecked[4] = 2;
        assertThatThrownBy(
                        () ->
                                ShreddingFooter.decode(
                                        Base64.getEncoder().encodeToString(unchecked),
                                        GroupPlacementFooterTest::meta,
                                        "m",
                                        "flipped-version-file"))
                .isInstanceOf(UncheckedIOException.class)
                .hasCauseInstanceOf(DamagedFileException.class)
                .hasMessageContaining("checksum failed")
                .hasMessageContaining("flipped-version-file");
    }
}
