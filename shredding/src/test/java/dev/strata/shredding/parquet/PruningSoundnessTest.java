package dev.strata.shredding.parquet;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.shredding.ShreddedReadMetrics;
import dev.strata.shredding.ShreddedReadMetrics.Counter;
import dev.strata.shredding.TestMaps;
import dev.strata.shredding.allocate.PlacementPolicy;
import dev.strata.shredding.pushdown.MapPredicate;
import dev.strata.shredding.pushdown.MapPredicate.Op;
import dev.strata.shredding.pushdown.MapPruner;
import dev.strata.testing.TestSeeds;
import dev.strata.testing.maps.GeneratedMap;
import dev.strata.testing.maps.MapDataGenerator;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.fs.Path;
import org.apache.paimon.types.DataTypes;
import org.apache.paimon.types.RowType;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Soundness of file, row-group and page pruning against a brute-force scan with Spark semantics: a
 * row group (or file, or row) holding a matching row is never skipped, and selective predicates
 * skip.
 */
class PruningSoundnessTest {

    private static final int ROWS = 8_000;
    private static final int ROW_GROUP_ROWS = 1_000;
    private static final int UNIVERSE = 300;

    @TempDir java.nio.file.Path tmp;

    private static final class Fixture {
        final Path path;
        final List<GeneratedMap> maps;
        final boolean strings;

        Fixture(Path path, List<GeneratedMap> maps, boolean strings) {
            this.path = path;
            this.maps = maps;
            this.strings = strings;
        }
    }

    @Test
    void prunedRowGroupsNeverHoldAMatchingRowAndSelectivePredicatesSkip() throws Exception {
        long seed = TestSeeds.seed("pruningSoundness");
        String why = TestSeeds.describe("pruningSoundness", seed);
        Random random = new Random(seed);
        List<Fixture> fixtures = new ArrayList<>();
        fixtures.add(write("lru-double", seed, PlacementPolicy.LRU, 6, false));
        fixtures.add(write("plain-double", seed + 1, PlacementPolicy.PLAIN, 4, false));
        fixtures.add(write("seq-string", seed + 2, PlacementPolicy.SEQUENTIAL, 5, true));
        List<String> universe =
                MapDataGenerator.builder(seed).keyUniverse(UNIVERSE).build().keyUniverse();

        long groupsChecked = 0;
        long groupsSkippedWithZones = 0;
        long groupsSkippedParquetOnly = 0;
        long filesSkipped = 0;
        int predicates = 0;
        long pageRowsSkipped = 0;
        for (int p = 0; p < 600; p++) {
            Fixture f = fixtures.get(p % fixtures.size());
            MapPredicate pred = randomPredicate(random, universe, f.strings, 2);
            predicates++;
            boolean[] matches = new boolean[ROWS];
            for (int i = 0; i < ROWS; i++) {
                matches[i] = eval(pred, f.maps.get(i));
            }
            ShreddedFooters.Opened opened =
                    ShreddedFooters.open(
                            PaimonFiles.inputFile(
                                    FileRoundTrip.IO, f.path, FileRoundTrip.IO.getFileSize(f.path)),
                            f.path.toString(),
                            false);
            try (ParquetFileReader reader = opened.reader) {
                MapPruner pruner =
                        new MapPruner(
                                pred,
                                opened.metas,
                                reader.getFooter().getFileMetaData().getSchema());
                List<BlockMetaData> blocks = reader.getRowGroups();
                boolean anyMatch = false;
                for (boolean b : matches) {
                    anyMatch |= b;
                }
                if (pruner.fileCannotMatch()) {
                    assertThat(anyMatch)
                            .as(why + ": file skipped but a row matches " + pred)
                            .isFalse();
                    filesSkipped++;
                }
                long start = 0;
                for (int g = 0; g < blocks.size(); g++) {
                    long rows = blocks.get(g).getRowCount();
                    boolean groupMatch = false;
                    for (long r = start; r < start + rows; r++) {
                        groupMatch |= matches[(int) r];
                    }
                    boolean withZones = pruner.rowGroupCannotMatch(blocks.get(g), g, true);
                    boolean parquetOnly = pruner.rowGroupCannotMatch(blocks.get(g), g, false);
                    assertThat(groupMatch && withZones)
                            .as(
                                    why
                                            + ": "
                                            + f.path
                                            + " group "
                                            + g
                                            + " skipped with zones for "
                                            + pred)
                            .isFalse();
                    assertThat(groupMatch && parquetOnly)
                            .as(why + ": group " + g + " skipped by Parquet stats for " + pred)
                            .isFalse();
                    groupsChecked++;
                    groupsSkippedWithZones += withZones ? 1 : 0;
                    groupsSkippedParquetOnly += parquetOnly ? 1 : 0;
                    start += rows;
                }
            }
            if (p % 12 == 0) {
                // End to end through the reader, page-level filtering included: every matching row
                // comes back
                // at its own position.
                FileRoundTrip.Read read;
                try (ShreddedReadMetrics.Scope scope = ShreddedReadMetrics.collect()) {
                    read = FileRoundTrip.read(f.path, readType(f.strings), null, pred);
                    pageRowsSkipped += scope.snapshot().get(Counter.ROWS_SKIPPED_BY_PAGE_INDEX);
                }
                Set<Long> returned = new HashSet<>();
                for (int i = 0; i < read.rows.size(); i++) {
                    long id = read.rows.get(i).getLong(0);
                    assertThat(read.positions.get(i)).as(why).isEqualTo(id);
                    returned.add(id);
                }
                for (int i = 0; i < ROWS; i++) {
                    if (matches[i]) {
                        assertThat(returned)
                                .as(why + ": row " + i + " matches " + pred + " but was not read")
                                .contains((long) i);
                    }
                }
            }
        }
        System.out.printf(
                "[strata] %d predicates: %d row groups checked, skipped %d with zone stats, %d by Parquet stats alone,"
                        + " %d files skipped, %d rows dropped by page index in end-to-end reads%n",
                predicates,
                groupsChecked,
                groupsSkippedWithZones,
                groupsSkippedParquetOnly,
                filesSkipped,
                pageRowsSkipped);
        assertThat(predicates).isGreaterThanOrEqualTo(500);
        assertThat(groupsSkippedWithZones)
                .as("selective predicates must skip row groups")
                .isGreaterThan(groupsChecked / 10);
        assertThat(groupsSkippedWithZones).isGreaterThanOrEqualTo(groupsSkippedParquetOnly);
    }

    @Test
    void equalityOnOneKeySkipsRowGroupsAndCountsThem() throws Exception {
        long seed = TestSeeds.seed("selectiveEquality");
        Fixture f = write("sel", seed, PlacementPolicy.LRU, 8, false);
        // Key 7 holds values in [70, 80) (or NaN, which is never < x): every group is refuted.
        MapPredicate pred = MapPredicate.leaf("m", "metric_7", Op.LT, -1.0e9);
        ShreddedReadMetrics.Snapshot s;
        FileRoundTrip.Read read;
        try (ShreddedReadMetrics.Scope scope = ShreddedReadMetrics.collect()) {
            read = FileRoundTrip.read(f.path, readType(false), null, pred);
            s = scope.snapshot();
        }
        assertThat(read.rows).isEmpty();
        assertThat(s.get(Counter.FILES_READ)).isEqualTo(1);
        assertThat(s.get(Counter.ROW_GROUPS_TOTAL)).isEqualTo(ROWS / ROW_GROUP_ROWS);
        assertThat(s.get(Counter.ROW_GROUPS_SKIPPED)).isEqualTo(s.get(Counter.ROW_GROUPS_TOTAL));

        MapPredicate absent = MapPredicate.leaf("m", "no-such-key", Op.EQ, 1.0);
        try (ShreddedReadMetrics.Scope scope = ShreddedReadMetrics.collect()) {
            assertThat(FileRoundTrip.read(f.path, readType(false), null, absent).rows).isEmpty();
            assertThat(scope.snapshot().get(Counter.FILES_SKIPPED)).isEqualTo(1);
        }
        MapPredicate orAbsent =
                MapPredicate.or(absent, MapPredicate.leaf("m", "metric_7", Op.IS_NOT_NULL));
        assertThat(FileRoundTrip.read(f.path, readType(false), null, orAbsent).rows).isNotEmpty();
    }

    /**
     * A row group in which a key holds only NaN (and NULL) values: Spark orders NaN above every
     * number and {@code NaN = NaN}, so {@code <}, {@code =} or {@code IN} of ordinary numbers
     * cannot match there and the group is skipped; {@code >}, {@code >=}, {@code <>} and a NaN
     * literal may match, and the NaN row comes back.
     */
    @Test
    void aRowGroupWhereTheKeyIsOnlyNaNIsSkippedByWhatNaNCannotSatisfy() throws Exception {
        int groupRows = 100;
        List<GeneratedMap> maps = new ArrayList<>();
        for (int i = 0; i < 3 * groupRows; i++) {
            int group = i / groupRows;
            List<String> keys = new ArrayList<>(List.of("other"));
            List<Object> values = new ArrayList<>(List.of((double) i));
            if (group != 1 || i % 10 == 0) {
                keys.add("k");
                Object nanOrNull = i % 20 == 0 ? (Object) Double.NaN : null;
                values.add(group == 1 ? nanOrNull : (Object) (group * 10.0 + i % 7));
            }
            maps.add(GeneratedMap.of(keys, values));
        }
        Path path = new Path(tmp.toUri().toString(), "nan-only.parquet");
        List<Integer> ids = new ArrayList<>();
        for (int i = 0; i < maps.size(); i++) {
            ids.add(i);
        }
        FileRoundTrip.write(
                path,
                TestMaps.idAndMap(),
                Map.of("m", 4),
                PlacementPolicy.LRU,
                new ShreddedParquetWriter.Settings().rowGroupRowLimit(groupRows),
                ids,
                i -> GenericRow.of((long) i, TestMaps.toPaimon(maps.get(i))));
        Object[][] cases = {
            {Op.LT, 1.0e9, true},
            {Op.LT_EQ, 1.0e9, true},
            {Op.EQ, 3.0, true},
            {Op.IN, 3.0, true},
            {Op.LT, Double.NaN, true},
            {Op.GT, 1.0e9, false},
            {Op.GT_EQ, 1.0e9, false},
            {Op.NOT_EQ, 3.0, false},
            {Op.EQ, Double.NaN, false},
            {Op.LT_EQ, Double.NaN, false},
            {Op.GT, Double.NaN, true},
            {Op.NOT_EQ, Double.NaN, true},
        };
        for (Object[] c : cases) {
            MapPredicate pred = MapPredicate.leaf("m", "k", (Op) c[0], c[1]);
            boolean nanGroupSkipped = (Boolean) c[2];
            FileRoundTrip.Read read;
            long skipped;
            try (ShreddedReadMetrics.Scope scope = ShreddedReadMetrics.collect()) {
                read = FileRoundTrip.read(path, TestMaps.idAndMap(), null, pred);
                skipped = scope.snapshot().get(Counter.ROW_GROUPS_SKIPPED);
            }
            Set<Long> returned = new HashSet<>();
            read.rows.forEach(r -> returned.add(r.getLong(0)));
            boolean nanRowsRead = false;
            for (int i = 0; i < maps.size(); i++) {
                if (eval(pred, maps.get(i))) {
                    assertThat(returned).as(pred + ": matching row " + i).contains((long) i);
                }
                nanRowsRead |= i / groupRows == 1 && returned.contains((long) i);
            }
            assertThat(nanRowsRead)
                    .as(pred + ": rows of the NaN-only group read")
                    .isEqualTo(!nanGroupSkipped);
            if (nanGroupSkipped) {
                assertThat(skipped).as(pred + ": row groups skipped").isGreaterThanOrEqualTo(1);
            }
        }
    }

    private Fixture write(String name, long seed, PlacementPolicy policy, int k, boolean strings)
            throws Exception {
        List<GeneratedMap> maps =
                MapDataGenerator.builder(seed)
                        .keyUniverse(UNIVERSE)
                        .keysPerRow(5, 16)
                        .nullMapRate(0.02)
                        .emptyMapRate(0.02)
                        .nullValueRate(0.05)
                        .nanRate(strings ? 0 : 0.01)
                        .valueKind(
                                strings
                                        ? MapDataGenerator.ValueKind.STRING
                                        : MapDataGenerator.ValueKind.DOUBLE)
                        .families(12, 200)
                        .build()
                        .generate(ROWS);
        Path path = new Path(tmp.toUri().toString(), name + ".parquet");
        List<Integer> ids = new ArrayList<>();
        for (int i = 0; i < ROWS; i++) {
            ids.add(i);
        }
        RowType type = readType(strings);
        FileRoundTrip.write(
                path,
                type,
                Map.of("m", k),
                policy,
                new ShreddedParquetWriter.Settings()
                        .rowGroupRowLimit(ROW_GROUP_ROWS)
                        .pageRowLimit(200),
                ids,
                i ->
                        GenericRow.of(
                                (long) i,
                                strings ? stringMap(maps.get(i)) : TestMaps.toPaimon(maps.get(i))));
        return new Fixture(path, maps, strings);
    }

    private static RowType readType(boolean strings) {
        return strings
                ? RowType.of(
                        new org.apache.paimon.types.DataType[] {
                            DataTypes.BIGINT(),
                            DataTypes.MAP(DataTypes.STRING().notNull(), DataTypes.STRING())
                        },
                        new String[] {"id", "m"})
                : TestMaps.idAndMap();
    }

    private static org.apache.paimon.data.InternalMap stringMap(GeneratedMap g) {
        if (g.isNull()) {
            return null;
        }
        Object[] k = new Object[g.size()];
        Object[] v = new Object[g.size()];
        for (int i = 0; i < g.size(); i++) {
            k[i] = BinaryString.fromString(g.keys().get(i));
            v[i] =
                    g.values().get(i) == null
                            ? null
                            : BinaryString.fromString((String) g.values().get(i));
        }
        return new ArrayBackedMap(k, v);
    }

    // ------------------------------------------------------------ random predicates and brute
    // force

    private static MapPredicate randomPredicate(
            Random r, List<String> universe, boolean strings, int depth) {
        if (depth > 0 && r.nextInt(3) == 0) {
            int n = 2 + r.nextInt(2);
            List<MapPredicate> children = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                children.add(randomPredicate(r, universe, strings, depth - 1));
            }
            return r.nextBoolean() ? MapPredicate.and(children) : MapPredicate.or(children);
        }
        int keyIndex = r.nextInt(universe.size() + 3);
        String key = keyIndex < universe.size() ? universe.get(keyIndex) : "absent_" + keyIndex;
        int ki = Math.min(keyIndex, universe.size() - 1);
        Op[] ops =
                strings
                        ? new Op[] {
                            Op.EQ,
                            Op.NOT_EQ,
                            Op.LT,
                            Op.LT_EQ,
                            Op.GT,
                            Op.GT_EQ,
                            Op.IN,
                            Op.IS_NOT_NULL,
                            Op.STARTS_WITH
                        }
                        : new Op[] {
                            Op.EQ,
                            Op.NOT_EQ,
                            Op.LT,
                            Op.LT_EQ,
                            Op.GT,
                            Op.GT_EQ,
                            Op.IN,
                            Op.IS_NOT_NULL
                        };
        Op op = ops[r.nextInt(ops.length)];
        if (op == Op.IS_NOT_NULL) {
            return MapPredicate.leaf("m", key, op);
        }
        if (op == Op.IN) {
            int n = 1 + r.nextInt(3);
            Object[] lits = new Object[n];
            for (int i = 0; i < n; i++) {
                lits[i] = literal(r, ki, strings);
            }
            return MapPredicate.leaf("m", key, op, lits);
        }
        if (op == Op.STARTS_WITH) {
            String s = "v" + ki + (r.nextBoolean() ? "_" + r.nextInt(10) : "");
            return MapPredicate.leaf("m", key, op, s);
        }
        return MapPredicate.leaf("m", key, op, literal(r, ki, strings));
    }

    private static Object literal(Random r, int keyIndex, boolean strings) {
        int near = Math.max(0, keyIndex + r.nextInt(5) - 2);
        if (strings) {
            return "v" + near + "_" + r.nextInt(100);
        }
        int pick = r.nextInt(20);
        if (pick == 0) {
            return Double.NaN;
        }
        if (pick == 1) {
            return -0.0;
        }
        return MapDataGenerator.valueBase(near) + r.nextDouble() * 12 - 1;
    }

    static boolean eval(MapPredicate p, GeneratedMap m) {
        if (p instanceof MapPredicate.And) {
            for (MapPredicate c : ((MapPredicate.And) p).children()) {
                if (!eval(c, m)) {
                    return false;
                }
            }
            return true;
        }
        if (p instanceof MapPredicate.Or) {
            for (MapPredicate c : ((MapPredicate.Or) p).children()) {
                if (eval(c, m)) {
                    return true;
                }
            }
            return false;
        }
        MapPredicate.Leaf l = (MapPredicate.Leaf) p;
        Object v = m.isNull() ? null : m.lookup(l.key());
        if (v == null) {
            return false;
        }
        switch (l.op()) {
            case IS_NOT_NULL:
                return true;
            case IN:
                for (Object lit : l.literals()) {
                    if (compare(v, lit) == 0) {
                        return true;
                    }
                }
                return false;
            case STARTS_WITH:
                return ((String) v).startsWith((String) l.literals().get(0));
            default:
                int c = compare(v, l.literals().get(0));
                switch (l.op()) {
                    case EQ:
                        return c == 0;
                    case NOT_EQ:
                        return c != 0;
                    case LT:
                        return c < 0;
                    case LT_EQ:
                        return c <= 0;
                    case GT:
                        return c > 0;
                    default:
                        return c >= 0;
                }
        }
    }

    /**
     * Spark ordering: NaN equals NaN and sorts above every number; -0.0 equals 0.0; strings by
     * UTF-8 bytes.
     */
    private static int compare(Object a, Object b) {
        if (a instanceof Double) {
            double x = (Double) a;
            double y = (Double) b;
            if (Double.isNaN(x) || Double.isNaN(y)) {
                return Double.isNaN(x) && Double.isNaN(y) ? 0 : Double.isNaN(x) ? 1 : -1;
            }
            return x < y ? -1 : x > y ? 1 : 0;
        }
        byte[] x = ((String) a).getBytes(StandardCharsets.UTF_8);
        byte[] y = ((String) b).getBytes(StandardCharsets.UTF_8);
        return java.util.Arrays.compareUnsigned(x, y);
    }
}
