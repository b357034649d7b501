package dev.strata.spark.read;

import java.io.IOException;
import java.util.function.Predicate;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.table.source.Split;
import org.apache.paimon.table.source.TableRead;
import org.apache.paimon.utils.CloseableIterator;

/** A split read on the driver by Paimon's own read, the one a Spark task would open. */
final class SplitRows {

    private SplitRows() {}

    /**
     * Hands each row of {@code split} to {@code visit} until it returns false; a row is valid only
     * during its call. The reader streams, so the split is read only as far as visited.
     */
    static void read(TableRead read, Split split, Predicate<InternalRow> visit) throws IOException {
        try (CloseableIterator<InternalRow> rows = read.createReader(split).toCloseableIterator()) {
            while (rows.hasNext() && visit.test(rows.next())) {}
        } catch (IOException | RuntimeException e) {
            throw e;
        } catch (Exception e) { // closing
            throw new IOException(e);
        }
    }
}
