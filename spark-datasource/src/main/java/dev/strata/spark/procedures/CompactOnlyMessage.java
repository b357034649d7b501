package dev.strata.spark.procedures;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.paimon.fs.FileIO;
import org.apache.paimon.index.IndexFileMeta;
import org.apache.paimon.io.CompactIncrement;
import org.apache.paimon.io.DataFileMeta;
import org.apache.paimon.io.DataFilePathFactory;
import org.apache.paimon.io.DataIncrement;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.sink.CommitMessageImpl;

/**
 * Folds a write-then-compact task message into a compact-only one, so leaving the postpone bucket
 * is one COMPACT snapshot. New files the task's own compaction replaced are deleted here (a file
 * only moved to another level keeps its name and is kept); the rest join the compact increment.
 */
final class CompactOnlyMessage {

    private CompactOnlyMessage() {}

    static CommitMessageImpl fold(FileStoreTable table, CommitMessageImpl m) {
        DataIncrement append = m.newFilesIncrement();
        CompactIncrement compact = m.compactIncrement();
        if (!append.deletedFiles().isEmpty()) {
            throw new IllegalStateException(
                    String.format(
                            "Cannot fold the compaction of bucket %d of %s: the task deleted files outside a compaction.",
                            m.bucket(), table.name()));
        }
        Set<String> written = names(append.newFiles());
        Set<String> replaced = names(compact.compactBefore());
        Set<String> produced = names(compact.compactAfter());

        List<DataFileMeta> before = new ArrayList<>();
        for (DataFileMeta file : compact.compactBefore()) {
            if (!written.contains(file.fileName())) {
                before.add(file);
            }
        }
        List<DataFileMeta> after = new ArrayList<>(compact.compactAfter());
        DataFilePathFactory paths =
                table.store().pathFactory().createDataFilePathFactory(m.partition(), m.bucket());
        FileIO fileIO = table.fileIO();
        for (DataFileMeta file : append.newFiles()) {
            if (!replaced.contains(file.fileName())) {
                after.add(file);
            } else if (!produced.contains(file.fileName())) {
                fileIO.deleteQuietly(paths.toPath(file));
            }
        }
        List<DataFileMeta> changelog = new ArrayList<>(append.changelogFiles());
        changelog.addAll(compact.changelogFiles());
        List<IndexFileMeta> newIndex = new ArrayList<>(append.newIndexFiles());
        newIndex.addAll(compact.newIndexFiles());
        List<IndexFileMeta> deletedIndex = new ArrayList<>(append.deletedIndexFiles());
        deletedIndex.addAll(compact.deletedIndexFiles());
        return new CommitMessageImpl(
                m.partition(),
                m.bucket(),
                m.totalBuckets(),
                DataIncrement.emptyIncrement(),
                new CompactIncrement(before, after, changelog, newIndex, deletedIndex));
    }

    private static Set<String> names(List<DataFileMeta> files) {
        Set<String> names = new HashSet<>();
        files.forEach(f -> names.add(f.fileName()));
        return names;
    }
}
