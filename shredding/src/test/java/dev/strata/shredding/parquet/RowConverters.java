package dev.strata.shredding.parquet;

import dev.strata.shredding.layout.ShreddedColumnMeta;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.Decimal;
import org.apache.paimon.data.GenericArray;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.data.Timestamp;
import org.apache.paimon.types.ArrayType;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.DecimalType;
import org.apache.paimon.types.MapType;
import org.apache.paimon.types.RowType;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.Converter;
import org.apache.parquet.io.api.GroupConverter;
import org.apache.parquet.io.api.PrimitiveConverter;
import org.apache.parquet.io.api.RecordMaterializer;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Type;

/**
 * parquet-hadoop converters that assemble Paimon rows, rebuilding shredded maps (test oracle,
 * {@link RecordAssemblyReader}).
 */
final class RowConverters {

    private RowConverters() {}

    interface Sink {
        void accept(Object value);
    }

    /** How one output field is produced. */
    static final class FieldPlan {
        final int outputIndex;
        final String fileName;
        final DataType type;
        final ShreddedColumnMeta meta;

        /** Requested keys (null: whole map). */
        final List<String> selectedKeys;

        FieldPlan(
                int outputIndex,
                String fileName,
                DataType type,
                ShreddedColumnMeta meta,
                List<String> selectedKeys) {
            this.outputIndex = outputIndex;
            this.fileName = fileName;
            this.type = type;
            this.meta = meta;
            this.selectedKeys = selectedKeys;
        }
    }

    static final class Materializer extends RecordMaterializer<InternalRow> {
        private final Root root;

        Materializer(MessageType requested, List<FieldPlan> plans, int outputArity, String file) {
            this.root = new Root(requested, plans, outputArity, file);
        }

        @Override
        public InternalRow getCurrentRecord() {
            return root.current;
        }

        @Override
        public GroupConverter getRootConverter() {
            return root;
        }
    }

    private static final class Root extends GroupConverter {
        private final Converter[] children;
        private final Object[] values;
        private final List<Runnable> postProcess = new ArrayList<>();
        GenericRow current;

        Root(MessageType requested, List<FieldPlan> plans, int arity, String file) {
            values = new Object[arity];
            children = new Converter[requested.getFieldCount()];
            for (FieldPlan plan : plans) {
                if (!requested.containsField(plan.fileName)) {
                    continue;
                }
                int idx = requested.getFieldIndex(plan.fileName);
                Type t = requested.getType(idx);
                int out = plan.outputIndex;
                Sink sink = v -> values[out] = v;
                if (plan.meta != null) {
                    children[idx] =
                            new ShreddedConverter(
                                    t.asGroupType(),
                                    ((MapType) plan.type).getValueType(),
                                    plan.meta,
                                    plan.selectedKeys,
                                    sink,
                                    plan.fileName,
                                    file);
                } else if (plan.selectedKeys != null && plan.type instanceof MapType) {
                    List<String> keys = plan.selectedKeys;
                    children[idx] = converter(t, plan.type, sink);
                    postProcess.add(
                            () ->
                                    values[out] =
                                            MapSelection.select(
                                                    (ArrayBackedMap) values[out], keys));
                } else {
                    children[idx] = converter(t, plan.type, sink);
                }
            }
        }

        @Override
        public Converter getConverter(int fieldIndex) {
            return children[fieldIndex];
        }

        @Override
        public void start() {
            Arrays.fill(values, null);
        }

        @Override
        public void end() {
            for (Runnable r : postProcess) {
                r.run();
            }
            current = GenericRow.of(values.clone());
        }
    }

    static Converter converter(Type fileType, DataType type, Sink sink) {
        switch (type.getTypeRoot()) {
            case ARRAY:
                return new ListConverter(
                        fileType.asGroupType(), ((ArrayType) type).getElementType(), sink);
            case MAP:
                return new MapConverter(fileType.asGroupType(), (MapType) type, sink);
            case ROW:
                return new RowConverter(fileType.asGroupType(), (RowType) type, sink);
            default:
                return primitive(fileType.asPrimitiveType(), type, sink);
        }
    }

    private static PrimitiveConverter primitive(PrimitiveType file, DataType type, Sink sink) {
        switch (type.getTypeRoot()) {
            case BOOLEAN:
                return new PrimitiveConverter() {
                    @Override
                    public void addBoolean(boolean value) {
                        sink.accept(value);
                    }
                };
            case TINYINT:
                return new PrimitiveConverter() {
                    @Override
                    public void addInt(int value) {
                        sink.accept((byte) value);
                    }
                };
            case SMALLINT:
                return new PrimitiveConverter() {
                    @Override
                    public void addInt(int value) {
                        sink.accept((short) value);
                    }
                };
            case INTEGER:
            case DATE:
            case TIME_WITHOUT_TIME_ZONE:
                return new PrimitiveConverter() {
                    @Override
                    public void addInt(int value) {
                        sink.accept(value);
                    }
                };
            case BIGINT:
                return new PrimitiveConverter() {
                    @Override
                    public void addInt(int value) {
                        sink.accept((long) value);
                    }

                    @Override
                    public void addLong(long value) {
                        sink.accept(value);
                    }
                };
            case FLOAT:
                return new PrimitiveConverter() {
                    @Override
                    public void addFloat(float value) {
                        sink.accept(value);
                    }
                };
            case DOUBLE:
                return new PrimitiveConverter() {
                    @Override
                    public void addFloat(float value) {
                        sink.accept((double) value);
                    }

                    @Override
                    public void addDouble(double value) {
                        sink.accept(value);
                    }
                };
            case CHAR:
            case VARCHAR:
                return new PrimitiveConverter() {
                    @Override
                    public void addBinary(Binary value) {
                        sink.accept(BinaryString.fromBytes(value.getBytes()));
                    }
                };
            case BINARY:
            case VARBINARY:
                return new PrimitiveConverter() {
                    @Override
                    public void addBinary(Binary value) {
                        sink.accept(value.getBytes());
                    }
                };
            case DECIMAL:
                {
                    DecimalType d = (DecimalType) type;
                    int p = d.getPrecision();
                    int s = d.getScale();
                    return new PrimitiveConverter() {
                        @Override
                        public void addInt(int value) {
                            sink.accept(Decimal.fromUnscaledLong(value, p, s));
                        }

                        @Override
                        public void addLong(long value) {
                            sink.accept(Decimal.fromUnscaledLong(value, p, s));
                        }

                        @Override
                        public void addBinary(Binary value) {
                            sink.accept(Decimal.fromUnscaledBytes(value.getBytes(), p, s));
                        }
                    };
                }
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                {
                    LogicalTypeAnnotation a = file.getLogicalTypeAnnotation();
                    LogicalTypeAnnotation.TimeUnit unit =
                            a instanceof LogicalTypeAnnotation.TimestampLogicalTypeAnnotation
                                    ? ((LogicalTypeAnnotation.TimestampLogicalTypeAnnotation) a)
                                            .getUnit()
                                    : LogicalTypeAnnotation.TimeUnit.MICROS;
                    return new PrimitiveConverter() {
                        @Override
                        public void addLong(long value) {
                            switch (unit) {
                                case MILLIS:
                                    sink.accept(Timestamp.fromEpochMillis(value));
                                    break;
                                case MICROS:
                                    sink.accept(Timestamp.fromMicros(value));
                                    break;
                                default:
                                    sink.accept(
                                            Timestamp.fromEpochMillis(
                                                    Math.floorDiv(value, 1_000_000L),
                                                    (int) Math.floorMod(value, 1_000_000L)));
                            }
                        }
                    };
                }
            default:
                throw new UnsupportedOperationException(
                        "Cannot read type " + type + " from Parquet.");
        }
    }

    private static final class RowConverter extends GroupConverter {
        private final Converter[] children;
        private final Object[] values;
        private final Sink sink;

        RowConverter(GroupType file, RowType type, Sink sink) {
            this.sink = sink;
            values = new Object[type.getFieldCount()];
            children = new Converter[file.getFieldCount()];
            for (int i = 0; i < type.getFieldCount(); i++) {
                DataField f = type.getFields().get(i);
                if (!file.containsField(f.name())) {
                    continue;
                }
                int idx = file.getFieldIndex(f.name());
                int out = i;
                children[idx] = converter(file.getType(idx), f.type(), v -> values[out] = v);
            }
            for (int i = 0; i < children.length; i++) {
                if (children[i] == null) {
                    children[i] = ignoring(file.getType(i));
                }
            }
        }

        @Override
        public Converter getConverter(int fieldIndex) {
            return children[fieldIndex];
        }

        @Override
        public void start() {
            Arrays.fill(values, null);
        }

        @Override
        public void end() {
            sink.accept(GenericRow.of(values.clone()));
        }
    }

    /** A converter that drops a field the output does not need. */
    static Converter ignoring(Type t) {
        if (t.isPrimitive()) {
            return new PrimitiveConverter() {
                @Override
                public void addBinary(Binary value) {}

                @Override
                public void addBoolean(boolean value) {}

                @Override
                public void addDouble(double value) {}

                @Override
                public void addFloat(float value) {}

                @Override
                public void addInt(int value) {}

                @Override
                public void addLong(long value) {}
            };
        }
        GroupType g = t.asGroupType();
        Converter[] cs = new Converter[g.getFieldCount()];
        for (int i = 0; i < cs.length; i++) {
            cs[i] = ignoring(g.getType(i));
        }
        return new GroupConverter() {
            @Override
            public Converter getConverter(int fieldIndex) {
                return cs[fieldIndex];
            }

            @Override
            public void start() {}

            @Override
            public void end() {}
        };
    }

    /** LIST: {@code group (LIST) { repeated group list { optional T element; } }}. */
    private static final class ListConverter extends GroupConverter {
        private final Sink sink;
        private final GroupConverter repeated;
        private final List<Object> items = new ArrayList<>();
        private Object element;

        ListConverter(GroupType file, DataType elementType, Sink sink) {
            this.sink = sink;
            GroupType rep = file.getType(0).asGroupType();
            Converter elementConverter = converter(rep.getType(0), elementType, v -> element = v);
            repeated =
                    new GroupConverter() {
                        @Override
                        public Converter getConverter(int fieldIndex) {
                            return elementConverter;
                        }

                        @Override
                        public void start() {
                            element = null;
                        }

                        @Override
                        public void end() {
                            items.add(element);
                        }
                    };
        }

        @Override
        public Converter getConverter(int fieldIndex) {
            return repeated;
        }

        @Override
        public void start() {
            items.clear();
        }

        @Override
        public void end() {
            sink.accept(new GenericArray(items.toArray()));
        }
    }

    /**
     * MAP: {@code group (MAP) { repeated group key_value { required K key; optional V value; } }}.
     */
    private static final class MapConverter extends GroupConverter {
        private final Sink sink;
        private final GroupConverter repeated;
        private final List<Object> keys = new ArrayList<>();
        private final List<Object> values = new ArrayList<>();
        private Object key;
        private Object value;

        MapConverter(GroupType file, MapType type, Sink sink) {
            this.sink = sink;
            GroupType kv = file.getType(0).asGroupType();
            Converter kc = converter(kv.getType(0), type.getKeyType(), v -> key = v);
            Converter vc =
                    kv.getFieldCount() > 1
                            ? converter(kv.getType(1), type.getValueType(), v -> value = v)
                            : null;
            repeated =
                    new GroupConverter() {
                        @Override
                        public Converter getConverter(int fieldIndex) {
                            return fieldIndex == 0 ? kc : vc;
                        }

                        @Override
                        public void start() {
                            key = null;
                            value = null;
                        }

                        @Override
                        public void end() {
                            keys.add(key);
                            values.add(value);
                        }
                    };
        }

        @Override
        public Converter getConverter(int fieldIndex) {
            return repeated;
        }

        @Override
        public void start() {
            keys.clear();
            values.clear();
        }

        @Override
        public void end() {
            sink.accept(new ArrayBackedMap(keys.toArray(), values.toArray()));
        }
    }
}
