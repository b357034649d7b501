package dev.strata.shredding.layout;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What one file says about one shredded column: D (keys by id), S (columns by id), O (overflowed
 * ids), K, W, the value kind, per-row-group {@link KeyZones} and per-row-group {@link
 * GroupPlacement} (S_g, O_g). Immutable.
 */
public final class ShreddedColumnMeta {

    private final int numColumns;
    private final int maxRowWidth;
    private final ValueKind valueKind;
    private final List<String> keys;
    private final int[][] columnsById;
    private final BitSet overflow;
    private final List<KeyZones> zones;
    private final List<GroupPlacement> placements;
    private final boolean zonesRecorded;
    private volatile Map<String, Integer> index;

    private volatile GroupPlacement filePlacement;

    public ShreddedColumnMeta(
            int numColumns,
            int maxRowWidth,
            ValueKind valueKind,
            List<String> keys,
            int[][] columnsById,
            BitSet overflow,
            List<KeyZones> zones) {
        this(numColumns, maxRowWidth, valueKind, keys, columnsById, overflow, zones, List.of());
    }

    /** {@code placements}: per row group (null: not recorded); empty when the file has none. */
    public ShreddedColumnMeta(
            int numColumns,
            int maxRowWidth,
            ValueKind valueKind,
            List<String> keys,
            int[][] columnsById,
            BitSet overflow,
            List<KeyZones> zones,
            List<GroupPlacement> placements) {
        this(
                numColumns,
                maxRowWidth,
                valueKind,
                keys,
                columnsById,
                overflow,
                zones,
                placements,
                true);
    }

    private ShreddedColumnMeta(
            int numColumns,
            int maxRowWidth,
            ValueKind valueKind,
            List<String> keys,
            int[][] columnsById,
            BitSet overflow,
            List<KeyZones> zones,
            List<GroupPlacement> placements,
            boolean zonesRecorded) {
        if (!placements.isEmpty() && placements.size() != zones.size()) {
            throw new IllegalArgumentException(
                    "Cannot build shredding metadata: "
                            + placements.size()
                            + " group placements for "
                            + zones.size()
                            + " row groups.");
        }
        this.placements = Collections.unmodifiableList(new ArrayList<>(placements));
        this.numColumns = numColumns;
        this.maxRowWidth = maxRowWidth;
        this.valueKind = valueKind;
        this.keys = List.copyOf(keys);
        this.columnsById = columnsById;
        this.overflow = (BitSet) overflow.clone();
        this.zones = List.copyOf(zones);
        this.zonesRecorded = zonesRecorded;
    }

    /** A file with only the file-level layout, as Paimon writes it: no zones or placements. */
    public static ShreddedColumnMeta withoutZones(
            int numColumns,
            int maxRowWidth,
            ValueKind valueKind,
            List<String> keys,
            int[][] columnsById,
            BitSet overflow) {
        return new ShreddedColumnMeta(
                numColumns,
                maxRowWidth,
                valueKind,
                keys,
                columnsById,
                overflow,
                List.of(),
                List.of(),
                false);
    }

    /** This layout plus Strata's value kind, zones and placements (arrays shared). */
    ShreddedColumnMeta withZones(
            ValueKind kind, List<KeyZones> zones, List<GroupPlacement> placements) {
        return new ShreddedColumnMeta(
                numColumns,
                maxRowWidth,
                kind,
                keys,
                columnsById,
                overflow,
                zones,
                placements,
                true);
    }

    /** Whether {@link #zones()} has one entry per row group (Strata's footer), else none. */
    public boolean zonesRecorded() {
        return zonesRecorded;
    }

    /** K. */
    public int numColumns() {
        return numColumns;
    }

    /** W. */
    public int maxRowWidth() {
        return maxRowWidth;
    }

    public ValueKind valueKind() {
        return valueKind;
    }

    /** D as a list: the key of each id. */
    public List<String> keys() {
        return keys;
    }

    /** D(key), or -1 when the key is absent from the file. */
    public int idOf(String key) {
        Map<String, Integer> m = index;
        if (m == null) {
            m = new HashMap<>(keys.size() * 2);
            for (int i = 0; i < keys.size(); i++) {
                m.putIfAbsent(keys.get(i), i);
            }
            index = m;
        }
        Integer id = m.get(key);
        return id == null ? -1 : id;
    }

    /** S(id), ascending. */
    public int[] columnsOf(int id) {
        return id >= 0 && id < columnsById.length ? columnsById[id] : new int[0];
    }

    /**
     * S and O as a placement without segments: what every row group's S_g and O_g lie within, so
     * its {@link GroupPlacement#ownsItsColumns} holds in every group (a group without a recorded
     * placement reads such a key without {@code __field_mapping}). Needs only Paimon's own keys, so
     * it serves files other writers made too.
     */
    public GroupPlacement filePlacement() {
        GroupPlacement p = filePlacement;
        if (p == null) {
            int[] ids = new int[columnsById.length];
            int[][] cols = new int[columnsById.length][];
            int n = 0;
            for (int id = 0; id < columnsById.length; id++) {
                if (columnsById[id].length > 0) {
                    ids[n] = id;
                    cols[n++] = columnsById[id];
                }
            }
            p =
                    new GroupPlacement(
                            numColumns,
                            Arrays.copyOf(ids, n),
                            Arrays.copyOf(cols, n),
                            overflow.stream().toArray());
            filePlacement = p;
        }
        return p;
    }

    /** Whether id ∈ O. */
    public boolean overflows(int id) {
        return id >= 0 && overflow.get(id);
    }

    /** O (a copy). */
    public BitSet overflowSet() {
        return (BitSet) overflow.clone();
    }

    /** Per-key zone statistics, one entry per row group in file order (empty when not recorded). */
    public List<KeyZones> zones() {
        return zones;
    }

    /** Per-row-group placements in file order (null entries: not recorded); empty if none. */
    public List<GroupPlacement> placements() {
        return placements;
    }

    /** The placement of row group {@code g}, or null when the file did not record it. */
    public GroupPlacement placement(int g) {
        return g >= 0 && g < placements.size() ? placements.get(g) : null;
    }
}
