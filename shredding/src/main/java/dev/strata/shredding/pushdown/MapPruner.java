package dev.strata.shredding.pushdown;

import dev.strata.shredding.layout.Domain;
import dev.strata.shredding.layout.KeyZones;
import dev.strata.shredding.layout.ShreddedColumnMeta;
import dev.strata.shredding.layout.ValueKind;
import dev.strata.shredding.parquet.ParquetSchemas;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.filter2.predicate.FilterApi;
import org.apache.parquet.filter2.predicate.FilterPredicate;
import org.apache.parquet.filter2.predicate.Operators;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ColumnPath;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;

/**
 * Decides "cannot match" vs "may match" for a {@link MapPredicate} per file, per row group and per
 * page. Rules: a leaf whose key is absent from the file's dictionary (or whose column holds only
 * empty/null maps) is FALSE for every row, so the file can be skipped when the whole predicate
 * reduces to FALSE. Per row group a leaf may match only if some column of S(id) admits it by its
 * chunk statistics or, when id ∈ O, the overflow key chunk's range holds id and the overflow value
 * chunk admits it; the per-key zone statistics of the footer refute a leaf when the key is absent
 * from the row group or its own min/max/null/NaN counts exclude the literal. AND refutes when a
 * child does, OR when all do. Leaves on columns not shredded in the file never refute. Page level
 * uses only leaves with id ∉ O (the overflow cannot be expressed in filter2).
 */
public final class MapPruner {

    private final MapPredicate predicate;
    private final Map<String, ShreddedColumnMeta> metas;
    private final MessageType fileSchema;
    private final Map<MapPredicate.Leaf, ResolvedLeaf> resolved = new HashMap<>();

    public MapPruner(
            MapPredicate predicate, Map<String, ShreddedColumnMeta> metas, MessageType fileSchema) {
        this.predicate = predicate;
        this.metas = metas;
        this.fileSchema = fileSchema;
        for (MapPredicate.Leaf leaf : predicate.leaves()) {
            resolved.computeIfAbsent(leaf, this::resolve);
        }
    }

    /** A leaf resolved against one file: its id, value kind and domain literals. */
    private static final class ResolvedLeaf {
        final MapPredicate.Leaf leaf;
        final ShreddedColumnMeta meta;
        final int id;
        final ValueKind kind;
        final List<Object> lits;

        ResolvedLeaf(
                MapPredicate.Leaf leaf,
                ShreddedColumnMeta meta,
                int id,
                ValueKind kind,
                List<Object> lits) {
            this.leaf = leaf;
            this.meta = meta;
            this.id = id;
            this.kind = kind;
            this.lits = lits;
        }

        boolean untranslatable() {
            return meta == null || (lits == null && leaf.op() != MapPredicate.Op.IS_NOT_NULL);
        }

        boolean absentInFile() {
            return meta != null && (id < 0 || meta.maxRowWidth() == 0);
        }
    }

    private ResolvedLeaf resolve(MapPredicate.Leaf leaf) {
        ShreddedColumnMeta meta = metas.get(leaf.column());
        if (meta == null) {
            return new ResolvedLeaf(leaf, null, -1, ValueKind.NONE, null);
        }
        int id = meta.idOf(leaf.key());
        ValueKind kind = meta.valueKind();
        List<Object> lits = new ArrayList<>();
        for (Object l : leaf.literals()) {
            Object d = Domain.literal(kind, l);
            if (d == null) {
                lits = null;
                break;
            }
            lits.add(d);
        }
        if (kind == ValueKind.NONE && leaf.op() != MapPredicate.Op.IS_NOT_NULL) {
            lits = null;
        }
        return new ResolvedLeaf(leaf, meta, id, kind, lits);
    }

    public boolean fileCannotMatch() {
        return !fileMay(predicate);
    }

    private boolean fileMay(MapPredicate p) {
        if (p instanceof MapPredicate.Leaf) {
            ResolvedLeaf r = resolved.get(p);
            return r.meta == null || !r.absentInFile();
        }
        List<MapPredicate> children = ((MapPredicate.Compound) p).children();
        if (p instanceof MapPredicate.And) {
            for (MapPredicate c : children) {
                if (!fileMay(c)) {
                    return false;
                }
            }
            return true;
        }
        for (MapPredicate c : children) {
            if (fileMay(c)) {
                return true;
            }
        }
        return false;
    }

    /** True when no row of the group can match; {@code useZones} false: Parquet statistics only. */
    public boolean rowGroupCannotMatch(BlockMetaData block, int group, boolean useZones) {
        Map<ColumnPath, ColumnChunkMetaData> chunks = new HashMap<>();
        for (ColumnChunkMetaData c : block.getColumns()) {
            chunks.put(c.getPath(), c);
        }
        return !groupMay(predicate, chunks, group, useZones);
    }

    private boolean groupMay(
            MapPredicate p,
            Map<ColumnPath, ColumnChunkMetaData> chunks,
            int group,
            boolean useZones) {
        if (p instanceof MapPredicate.Leaf) {
            return leafMay(resolved.get(p), chunks, group, useZones);
        }
        List<MapPredicate> children = ((MapPredicate.Compound) p).children();
        if (p instanceof MapPredicate.And) {
            for (MapPredicate c : children) {
                if (!groupMay(c, chunks, group, useZones)) {
                    return false;
                }
            }
            return true;
        }
        for (MapPredicate c : children) {
            if (groupMay(c, chunks, group, useZones)) {
                return true;
            }
        }
        return false;
    }

    private boolean leafMay(
            ResolvedLeaf r,
            Map<ColumnPath, ColumnChunkMetaData> chunks,
            int group,
            boolean useZones) {
        if (r.meta == null) {
            return true;
        }
        if (r.absentInFile()) {
            return false;
        }
        if (useZones && group < r.meta.zones().size() && !zoneMay(r, r.meta.zones().get(group))) {
            return false;
        }
        return chunksMay(r, chunks);
    }

    private boolean zoneMay(ResolvedLeaf r, KeyZones z) {
        int e = z.find(r.id);
        if (e < 0) {
            return z.truncated();
        }
        if (z.presentCount(e) == z.nullCount(e)) {
            return false;
        }
        if (r.untranslatable()) {
            return true;
        }
        boolean onlyNaN = r.kind == ValueKind.DOUBLE && z.min(e) == null && z.nanCount(e) > 0;
        if (onlyNaN) {
            return StatsAdmit.admitsNaN(r.leaf.op(), r.lits == null ? List.of() : r.lits);
        }
        return StatsAdmit.admits(
                r.kind,
                r.leaf.op(),
                r.lits == null ? List.of() : r.lits,
                z.min(e),
                z.max(e),
                z.nanCount(e) > 0);
    }

    private boolean chunksMay(ResolvedLeaf r, Map<ColumnPath, ColumnChunkMetaData> chunks) {
        String col = r.leaf.column();
        int[] s = r.meta.columnsOf(r.id);
        boolean inO = r.meta.overflows(r.id);
        if (s.length == 0 && !inO) {
            return false;
        }
        ColumnChunkMetaData ovfKey =
                chunks.get(ColumnPath.get(col, ParquetSchemas.OVERFLOW, "key_value", "key"));
        boolean ovfKeyMay = inO && rangeHolds(ovfKey, r.id);
        ColumnChunkMetaData mappingChunk =
                chunks.get(ColumnPath.get(col, ParquetSchemas.FIELD_MAPPING, "list", "element"));
        if (s.length > 0 && !ovfKeyMay && !rangeHolds(mappingChunk, r.id)) {
            return false;
        }
        if (s.length == 0 && !ovfKeyMay) {
            return false;
        }
        for (int c : s) {
            if (valueChunkMay(r, chunks.get(ColumnPath.get(col, ParquetSchemas.colName(c))))) {
                return true;
            }
        }
        return ovfKeyMay
                && valueChunkMay(
                        r,
                        chunks.get(
                                ColumnPath.get(
                                        col, ParquetSchemas.OVERFLOW, "key_value", "value")));
    }

    /** Whether an int32 chunk (mapping elements or overflow keys) may contain {@code id}. */
    private static boolean rangeHolds(ColumnChunkMetaData chunk, int id) {
        if (chunk == null) {
            return true;
        }
        Statistics<?> st = chunk.getStatistics();
        if (st == null) {
            return true;
        }
        if (!st.hasNonNullValue()) {
            return !allNull(chunk, st);
        }
        int min = (Integer) st.genericGetMin();
        int max = (Integer) st.genericGetMax();
        return min <= id && id <= max;
    }

    private static boolean allNull(ColumnChunkMetaData chunk, Statistics<?> st) {
        return st.isNumNullsSet()
                && st.getNumNulls() > 0
                && st.getNumNulls() == chunk.getValueCount();
    }

    private boolean valueChunkMay(ResolvedLeaf r, ColumnChunkMetaData chunk) {
        if (chunk == null) {
            return true;
        }
        Statistics<?> st = chunk.getStatistics();
        if (st == null) {
            return true;
        }
        if (!st.hasNonNullValue()) {
            return !allNull(chunk, st);
        }
        if (r.untranslatable() || r.leaf.op() == MapPredicate.Op.IS_NOT_NULL) {
            return true;
        }
        Object min = toDomain(st.genericGetMin(), chunk.getPrimitiveType(), r.kind);
        Object max = toDomain(st.genericGetMax(), chunk.getPrimitiveType(), r.kind);
        if (min == null || max == null) {
            return true;
        }
        return StatsAdmit.admits(r.kind, r.leaf.op(), r.lits, min, max, true);
    }

    /** A Parquet statistic in the kind's domain, or null when it cannot be interpreted. */
    static Object toDomain(Object stat, PrimitiveType type, ValueKind kind) {
        LogicalTypeAnnotation a = type.getLogicalTypeAnnotation();
        switch (kind) {
            case LONG:
                if (stat instanceof Boolean) {
                    return ((Boolean) stat) ? 1L : 0L;
                }
                if (a instanceof LogicalTypeAnnotation.TimestampLogicalTypeAnnotation) {
                    LogicalTypeAnnotation.TimeUnit unit =
                            ((LogicalTypeAnnotation.TimestampLogicalTypeAnnotation) a).getUnit();
                    if (unit == LogicalTypeAnnotation.TimeUnit.MILLIS) {
                        return ((Long) stat) * 1000L;
                    }
                    return unit == LogicalTypeAnnotation.TimeUnit.MICROS ? stat : null;
                }
                if (stat instanceof Integer) {
                    return ((Integer) stat).longValue();
                }
                return stat instanceof Long ? stat : null;
            case DOUBLE:
                return stat instanceof Number ? ((Number) stat).doubleValue() : null;
            case BYTES:
                return stat instanceof Binary ? ((Binary) stat).getBytes() : null;
            case DECIMAL:
                {
                    if (!(a instanceof LogicalTypeAnnotation.DecimalLogicalTypeAnnotation)) {
                        return null;
                    }
                    int scale = ((LogicalTypeAnnotation.DecimalLogicalTypeAnnotation) a).getScale();
                    if (stat instanceof Integer || stat instanceof Long) {
                        return BigDecimal.valueOf(((Number) stat).longValue(), scale);
                    }
                    if (stat instanceof Binary) {
                        return new BigDecimal(new BigInteger(((Binary) stat).getBytes()), scale);
                    }
                    return null;
                }
            default:
                return null;
        }
    }

    private static final FilterPredicate TRUE = null;

    private static final class False {}

    private static final Object FALSE = new False();

    /** A filter2 page filter over leaves with id ∉ O; null when none can be expressed. */
    public FilterPredicate pageFilter() {
        Object p = page(predicate);
        return p instanceof FilterPredicate ? (FilterPredicate) p : TRUE;
    }

    private Object page(MapPredicate p) {
        if (p instanceof MapPredicate.Leaf) {
            return pageLeaf(resolved.get(p));
        }
        List<MapPredicate> children = ((MapPredicate.Compound) p).children();
        List<FilterPredicate> parts = new ArrayList<>();
        if (p instanceof MapPredicate.And) {
            for (MapPredicate c : children) {
                Object x = page(c);
                if (x == FALSE) {
                    return FALSE;
                }
                if (x != null) {
                    parts.add((FilterPredicate) x);
                }
            }
            return combine(parts, true);
        }
        for (MapPredicate c : children) {
            Object x = page(c);
            if (x == null) {
                return null;
            }
            if (x != FALSE) {
                parts.add((FilterPredicate) x);
            }
        }
        return parts.isEmpty() ? FALSE : combine(parts, false);
    }

    private static Object combine(List<FilterPredicate> parts, boolean and) {
        if (parts.isEmpty()) {
            return null;
        }
        FilterPredicate out = parts.get(0);
        for (int i = 1; i < parts.size(); i++) {
            out = and ? FilterApi.and(out, parts.get(i)) : FilterApi.or(out, parts.get(i));
        }
        return out;
    }

    private Object pageLeaf(ResolvedLeaf r) {
        if (r.meta == null) {
            return null;
        }
        if (r.absentInFile()) {
            return FALSE;
        }
        if (r.meta.overflows(r.id) || r.untranslatable() || r.leaf.column().contains(".")) {
            return null;
        }
        int[] s = r.meta.columnsOf(r.id);
        if (s.length == 0) {
            return FALSE;
        }
        List<FilterPredicate> parts = new ArrayList<>();
        for (int c : s) {
            FilterPredicate f =
                    pageColumn(
                            r,
                            r.leaf.column() + "." + ParquetSchemas.colName(c),
                            ColumnPath.get(r.leaf.column(), ParquetSchemas.colName(c)));
            if (f == null) {
                return null;
            }
            parts.add(f);
        }
        return combine(parts, false);
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private FilterPredicate pageColumn(ResolvedLeaf r, String dotted, ColumnPath path) {
        PrimitiveType type;
        try {
            type = fileSchema.getType(path.toArray()).asPrimitiveType();
        } catch (RuntimeException e) {
            return null;
        }
        LogicalTypeAnnotation a = type.getLogicalTypeAnnotation();
        if (a instanceof LogicalTypeAnnotation.DecimalLogicalTypeAnnotation
                || a instanceof LogicalTypeAnnotation.TimestampLogicalTypeAnnotation) {
            return null;
        }
        MapPredicate.Op op = r.leaf.op();
        List<Comparable> lits = new ArrayList<>();
        Operators.Column column;
        switch (type.getPrimitiveTypeName()) {
            case INT32:
                column = FilterApi.intColumn(dotted);
                for (Object l : r.lits) {
                    long v = (Long) l;
                    if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
                        return null;
                    }
                    lits.add((int) v);
                }
                break;
            case INT64:
                column = FilterApi.longColumn(dotted);
                for (Object l : r.lits) {
                    lits.add((Long) l);
                }
                break;
            case DOUBLE:
            case FLOAT:
                if (op == MapPredicate.Op.GT
                        || op == MapPredicate.Op.GT_EQ
                        || op == MapPredicate.Op.NOT_EQ) {
                    return null;
                }
                boolean isFloat =
                        type.getPrimitiveTypeName() == PrimitiveType.PrimitiveTypeName.FLOAT;
                column = isFloat ? FilterApi.floatColumn(dotted) : FilterApi.doubleColumn(dotted);
                for (Object l : r.lits) {
                    double d = (Double) l;
                    if (Double.isNaN(d) || (isFloat && (double) (float) d != d)) {
                        return null;
                    }
                    lits.add(isFloat ? (Comparable) (float) d : (Comparable) d);
                }
                break;
            case BINARY:
                if (op == MapPredicate.Op.STARTS_WITH) {
                    return null;
                }
                column = FilterApi.binaryColumn(dotted);
                for (Object l : r.lits) {
                    lits.add(Binary.fromConstantByteArray((byte[]) l));
                }
                break;
            default:
                return null;
        }
        switch (op) {
            case IS_NOT_NULL:
                return FilterApi.notEq((Operators.Column & Operators.SupportsEqNotEq) column, null);
            case EQ:
                return FilterApi.eq(
                        (Operators.Column & Operators.SupportsEqNotEq) column, lits.get(0));
            case NOT_EQ:
                return FilterApi.notEq(
                        (Operators.Column & Operators.SupportsEqNotEq) column, lits.get(0));
            case LT:
                return FilterApi.lt(
                        (Operators.Column & Operators.SupportsLtGt) column, lits.get(0));
            case LT_EQ:
                return FilterApi.ltEq(
                        (Operators.Column & Operators.SupportsLtGt) column, lits.get(0));
            case GT:
                return FilterApi.gt(
                        (Operators.Column & Operators.SupportsLtGt) column, lits.get(0));
            case GT_EQ:
                return FilterApi.gtEq(
                        (Operators.Column & Operators.SupportsLtGt) column, lits.get(0));
            case IN:
                Set<Comparable> set = new HashSet<>(lits);
                return FilterApi.in((Operators.Column & Operators.SupportsEqNotEq) column, set);
            default:
                return null;
        }
    }
}
