package dev.strata.spark.read;

import dev.strata.shredding.io.DamagedFileException;
import dev.strata.shredding.parquet.PageChecksums;
import dev.strata.shredding.parquet.PaimonFiles;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.paimon.fs.FileIO;
import org.apache.paimon.fs.Path;
import org.apache.paimon.io.DataFileMeta;
import org.apache.paimon.table.source.DataSplit;
import org.apache.paimon.table.source.Split;

/**
 * Names the file at fault in a failed split read: Paimon's page errors do not, so each file is
 * checked with {@link PageChecksums}; otherwise the split's files are named.
 */
public final class SplitFailures {

    private SplitFailures() {}

    /** {@code split} may be null. */
    public static IOException explain(String table, FileIO fileIO, Split split, Throwable failure) {
        Optional<DamagedFileException> reported = DamagedFileException.in(failure);
        if (reported.isPresent()) {
            return reported.get() == failure
                    ? reported.get()
                    : new DamagedFileException(reported.get(), failure);
        }
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof InterruptedException || t instanceof InterruptedIOException) {
                return failure instanceof IOException
                        ? (IOException) failure
                        : new IOException(failure.getMessage(), failure);
            }
        }
        List<String> files = new ArrayList<>();
        if (split instanceof DataSplit) {
            DataSplit data = (DataSplit) split;
            for (DataFileMeta f : data.dataFiles()) {
                String path = f.externalPath().orElse(data.bucketPath() + "/" + f.fileName());
                files.add(path);
                if (!Thread.currentThread().isInterrupted()
                        && PaimonFiles.isParquet(f.fileFormat())) {
                    try {
                        long length = fileIO.getFileSize(new Path(path));
                        if (length != f.fileSize()) {
                            return new DamagedFileException(
                                    path,
                                    "data file has the wrong length",
                                    f.fileSize() + " bytes",
                                    length + " bytes",
                                    DamagedFileException.RESTORE,
                                    failure);
                        }
                        PageChecksums.verifyFile(
                                PaimonFiles.inputFile(fileIO, new Path(path), f.fileSize()), path);
                    } catch (DamagedFileException d) {
                        return new DamagedFileException(d, failure);
                    } catch (IOException | RuntimeException e) {
                        failure.addSuppressed(e);
                    }
                }
            }
        }
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return new IOException(
                "Cannot read split of "
                        + table
                        + (files.isEmpty() ? "" : " (data files " + files + ")")
                        + ": "
                        + root.getClass().getName()
                        + ": "
                        + root.getMessage(),
                failure);
    }
}
