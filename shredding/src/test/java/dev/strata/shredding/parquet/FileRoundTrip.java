package dev.strata.shredding.parquet;

import static org.assertj.core.api.Assertions.assertThat;

import dev.strata.shredding.allocate.PlacementPolicy;
import dev.strata.shredding.layout.ShreddingFooter;
import dev.strata.shredding.pushdown.MapPredicate;
import dev.strata.shredding.read.ShreddedParquetReader;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.fs.Path;
import org.apache.paimon.fs.PositionOutputStream;
import org.apache.paimon.fs.local.LocalFileIO;
import org.apache.paimon.types.RowType;
import org.apache.parquet.hadoop.ParquetFileReader;

/** Writes rows to a local shredded Parquet file and reads them back, for tests. */
public final class FileRoundTrip {

    public static final LocalFileIO IO = LocalFileIO.create();

    private FileRoundTrip() {}

    public static <T> void write(
            Path path,
            RowType rowType,
            Map<String, Integer> kByColumn,
            PlacementPolicy policy,
            ShreddedParquetWriter.Settings settings,
            List<T> items,
            Function<T, InternalRow> toRow)
            throws IOException {
        Map<String, ShreddedParquetWriter.ColumnSpec> specs = new java.util.LinkedHashMap<>();
        kByColumn.forEach((c, k) -> specs.put(c, new ShreddedParquetWriter.ColumnSpec(k, policy)));
        write(path, rowType, specs, settings, items, toRow);
    }

    /** As above, with each shredded column's full layout settings. */
    public static <T> void write(
            Path path,
            RowType rowType,
            Map<String, ShreddedParquetWriter.ColumnSpec> specs,
            ShreddedParquetWriter.Settings settings,
            List<T> items,
            Function<T, InternalRow> toRow)
            throws IOException {
        try (PositionOutputStream out = IO.newOutputStream(path, true)) {
            ShreddedParquetWriter w =
                    new ShreddedParquetWriter(
                            new PaimonFiles.StreamOutputFile(out, path.toString()),
                            rowType,
                            specs,
                            settings);
            for (T item : items) {
                w.write(toRow.apply(item));
            }
            w.close();
        }
    }

    /**
     * Every row of a shredded data file as parquet-mr's record assembly reads it ({@link
     * RecordAssemblyReader}, independent of Strata's reader), as {@code id -> sorted "key=value"
     * entries} (null for a NULL map); {@code rowType} is the table's (id BIGINT, map column).
     */
    public static Map<Long, List<String>> assembledRows(
            org.apache.paimon.fs.FileIO fileIO, Path path, RowType rowType) throws IOException {
        return assembledRows(fileIO, path, rowType, dev.strata.shredding.TestMaps::entries);
    }

    /** As above, each non-null map's entries rendered by {@code render} (then sorted). */
    public static Map<Long, List<String>> assembledRows(
            org.apache.paimon.fs.FileIO fileIO,
            Path path,
            RowType rowType,
            Function<org.apache.paimon.data.InternalMap, List<String>> render)
            throws IOException {
        Map<Long, List<String>> out = new java.util.TreeMap<>();
        try (RecordAssemblyReader r =
                new RecordAssemblyReader(
                        PaimonFiles.inputFile(fileIO, path, fileIO.getFileSize(path)),
                        path.toString(),
                        rowType,
                        Map.of(),
                        null,
                        null)) {
            InternalRow row;
            while ((row = r.next()) != null) {
                List<String> entries = row.isNullAt(1) ? null : render.apply(row.getMap(1));
                if (entries != null) {
                    java.util.Collections.sort(entries);
                }
                if (out.put(row.getLong(0), entries) != null) {
                    throw new IllegalStateException(
                            "duplicate id " + row.getLong(0) + " in " + path);
                }
            }
        }
        return out;
    }

    /** A read result: rows and their positions. */
    public static final class Read {
        public final List<InternalRow> rows = new ArrayList<>();
        public final List<Long> positions = new ArrayList<>();
    }

    public static Read read(
            Path path,
            RowType readType,
            Map<String, List<String>> selectedKeys,
            MapPredicate predicate)
            throws IOException {
        Read r = new Read();
        try (ShreddedParquetReader reader = open(path, readType, selectedKeys, predicate)) {
            InternalRow row;
            while ((row = reader.next()) != null) {
                r.rows.add(row);
                r.positions.add(reader.position());
            }
        }
        return r;
    }

    public static ShreddedParquetReader open(
            Path path,
            RowType readType,
            Map<String, List<String>> selectedKeys,
            MapPredicate predicate)
            throws IOException {
        return new ShreddedParquetReader(
                PaimonFiles.inputFile(IO, path, IO.getFileSize(path)),
                path.toString(),
                readType,
                selectedKeys,
                predicate,
                null);
    }

    /** The raw shredding footer entry of column m. */
    public static String footerValue(java.nio.file.Path file) throws Exception {
        Path p = new Path(file.toUri().toString());
        try (ParquetFileReader r =
                ParquetFileReader.open(
                        PaimonFiles.inputFile(FileRoundTrip.IO, p, Files.size(file)),
                        PaimonFiles.readOptions())) {
            return r.getFooter()
                    .getFileMetaData()
                    .getKeyValueMetaData()
                    .get(ShreddingFooter.footerKey("m"));
        }
    }

    /** The whole footer key-value metadata of a file. */
    public static Map<String, String> footer(java.nio.file.Path file) throws Exception {
        Path p = new Path(file.toUri().toString());
        try (ParquetFileReader r =
                ParquetFileReader.open(
                        PaimonFiles.inputFile(FileRoundTrip.IO, p, Files.size(file)),
                        PaimonFiles.readOptions())) {
            return r.getFooter().getFileMetaData().getKeyValueMetaData();
        }
    }

    /**
     * Overwrites the first occurrence of {@code from} in the file with {@code to} (same length
     * keeps the file size).
     */
    public static void replaceOnce(java.nio.file.Path file, byte[] from, byte[] to)
            throws Exception {
        byte[] bytes = Files.readAllBytes(file);
        int at = indexOf(bytes, from);
        assertThat(at).as("pattern present in file").isGreaterThanOrEqualTo(0);
        System.arraycopy(to, 0, bytes, at, to.length);
        Files.write(file, bytes);
    }

    private static int indexOf(byte[] hay, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= hay.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (hay[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
