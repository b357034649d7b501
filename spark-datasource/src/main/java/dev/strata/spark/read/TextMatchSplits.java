package dev.strata.spark.read;

import dev.strata.index.PkFullTextSearcher;
import dev.strata.index.search.ParallelBuckets;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.apache.paimon.io.DataFileMeta;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.source.DataSplit;
import org.apache.paimon.table.source.Split;
import org.apache.paimon.utils.RoaringBitmap32;
import org.apache.spark.sql.connector.read.InputPartition;

/**
 * Turns planned splits into input partitions that read only rows a pushed {@link TextMatchPushdown}
 * can match, using {@link PkFullTextSearcher#matches} once per bucket on the driver. In
 * raw-convertible splits a file without matches is skipped, one with matches is read by position
 * (whole when over half its rows match and the scan is not exact), an unsearched file is read
 * whole, and an empty split is dropped. Merging splits are read as they are. Rows not read by
 * position are filtered afterwards, so this only decides what is read.
 */
final class TextMatchSplits {

    final List<InputPartition> partitions = new ArrayList<>();
    long rowsMatched;
    long filesSkipped;
    long filesReadWhole;
    long rowsIndexedAtQueryTime;

    private TextMatchSplits() {}

    static TextMatchSplits plan(
            String tableName,
            FileStoreTable table,
            List<Split> splits,
            Function<Split, SplitReadMode> modes,
            TextMatchPushdown pushdown,
            Map<String, PkFullTextSearcher.BucketMatches> matchesByBucket) {
        TextMatchSplits out = new TextMatchSplits();
        PkFullTextSearcher searcher = PkFullTextSearcher.create(table);
        // Found in parallel on the driver.
        Map<String, DataSplit> missing = new LinkedHashMap<>();
        for (Split split : splits) {
            if (searchable(split) && !matchesByBucket.containsKey(bucketKey((DataSplit) split))) {
                missing.putIfAbsent(bucketKey((DataSplit) split), (DataSplit) split);
            }
        }
        try {
            List<String> keys = new ArrayList<>(missing.keySet());
            List<PkFullTextSearcher.BucketMatches> found =
                    ParallelBuckets.map(
                            new ArrayList<>(missing.values()),
                            data -> matches(searcher, tableName, pushdown, data));
            for (int i = 0; i < keys.size(); i++) {
                matchesByBucket.put(keys.get(i), found.get(i));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e); // each bucket reports its own failure
        }
        Set<String> counted = new HashSet<>();
        for (Split split : splits) {
            if (!searchable(split)) {
                out.partitions.add(new StrataInputPartition(split, modes.apply(split)));
                continue;
            }
            DataSplit data = (DataSplit) split;
            String key = bucketKey(data);
            // Found above for every searchable split's bucket.
            PkFullTextSearcher.BucketMatches matches = matchesByBucket.get(key);
            if (counted.add(key)) {
                out.rowsIndexedAtQueryTime += matches.rowsIndexedAtQueryTime();
            }
            Map<String, long[]> positions = new LinkedHashMap<>();
            Set<String> whole = new HashSet<>();
            for (DataFileMeta file : data.dataFiles()) {
                RoaringBitmap32 found = matches.positions(file.fileName());
                if (found == null) {
                    whole.add(file.fileName());
                } else if (found.isEmpty()) {
                    out.filesSkipped++;
                } else {
                    out.rowsMatched += found.getCardinality();
                    // Read whole, an exact scan would have to match every row itself.
                    if (!pushdown.exact() && found.getCardinality() * 2 > file.rowCount()) {
                        whole.add(file.fileName());
                    } else {
                        positions.put(file.fileName(), toArray(found));
                    }
                }
            }
            out.filesReadWhole += whole.size();
            DataSplit rest = null;
            if (!whole.isEmpty()) {
                Optional<DataSplit> filtered =
                        data.filterDataFile(f -> whole.contains(f.fileName()));
                rest = filtered.orElse(null);
            }
            if (!positions.isEmpty() || rest != null) {
                out.partitions.add(
                        new TextMatchInputPartition(
                                data.snapshotId(),
                                data.partition().copy(),
                                data.bucket(),
                                positions,
                                rest,
                                rest == null ? SplitReadMode.PLAIN : modes.apply(rest)));
            }
        }
        return out;
    }

    /**
     * The row count of an exact scan without reading, or null when some row is not answered by
     * position (a merging split, an unsearched file).
     */
    static Long count(
            String tableName,
            FileStoreTable table,
            List<Split> splits,
            TextMatchPushdown pushdown) {
        Map<String, List<DataSplit>> byBucket = new LinkedHashMap<>();
        for (Split split : splits) {
            if (!searchable(split)) {
                return null;
            }
            DataSplit data = (DataSplit) split;
            byBucket.computeIfAbsent(bucketKey(data), k -> new ArrayList<>()).add(data);
        }
        PkFullTextSearcher searcher = PkFullTextSearcher.create(table);
        List<Long> counts;
        try {
            counts =
                    ParallelBuckets.map(
                            new ArrayList<>(byBucket.values()),
                            bucket -> {
                                DataSplit first = bucket.get(0);
                                Set<String> files = new HashSet<>();
                                for (DataSplit data : bucket) {
                                    for (DataFileMeta file : data.dataFiles()) {
                                        files.add(file.fileName());
                                    }
                                }
                                try {
                                    return searcher.count(
                                            first.snapshotId(),
                                            first.partition(),
                                            first.bucket(),
                                            pushdown.queries(),
                                            pushdown.fresh(),
                                            files);
                                } catch (IOException e) {
                                    throw unreadable(tableName, pushdown, first, e);
                                }
                            });
        } catch (IOException e) {
            throw new UncheckedIOException(e); // each bucket reports its own failure
        }
        long total = 0;
        for (Long count : counts) {
            if (count == null) {
                return null;
            }
            total += count;
        }
        return total;
    }

    /** Read file by file, so its rows can be found by position. */
    private static boolean searchable(Split split) {
        return split instanceof DataSplit
                && ((DataSplit) split).rawConvertible()
                && !((DataSplit) split).isStreaming();
    }

    private static PkFullTextSearcher.BucketMatches matches(
            PkFullTextSearcher searcher,
            String tableName,
            TextMatchPushdown pushdown,
            DataSplit data) {
        try {
            return searcher.matches(
                    data.snapshotId(),
                    data.partition(),
                    data.bucket(),
                    pushdown.queries(),
                    pushdown.fresh());
        } catch (IOException e) {
            throw unreadable(tableName, pushdown, data, e);
        }
    }

    private static String bucketKey(DataSplit data) {
        return data.snapshotId()
                + "/"
                + Arrays.toString(data.partition().toBytes())
                + "/"
                + data.bucket();
    }

    private static UncheckedIOException unreadable(
            String tableName, TextMatchPushdown pushdown, DataSplit data, IOException e) {
        return new UncheckedIOException(
                "Cannot answer text_match on "
                        + tableName
                        + "."
                        + pushdown.column()
                        + " in bucket "
                        + data.bucket()
                        + ": reading its full-text archives failed: "
                        + e.getMessage()
                        + ". Run CALL <catalog>.sys.rebuild_pk_fulltext for the table if an archive is damaged.",
                e);
    }

    private static long[] toArray(RoaringBitmap32 bitmap) {
        long[] out = new long[(int) bitmap.getCardinality()];
        int i = 0;
        for (Iterator<Integer> it = bitmap.iterator(); it.hasNext(); ) {
            out[i++] = it.next();
        }
        return out;
    }
}
