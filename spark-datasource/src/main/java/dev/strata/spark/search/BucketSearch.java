package dev.strata.spark.search;

import dev.strata.index.PkFullTextSearcher;
import dev.strata.index.search.CorpusStats;
import dev.strata.index.search.SearchHit;
import dev.strata.spark.config.SessionSettings;
import dev.strata.spark.data.PaimonToSpark;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.table.FileStoreTable;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Searches one bucket and turns its top-k hits into Spark rows, on executors or the driver. */
final class BucketSearch {

    private static final Logger LOG = LoggerFactory.getLogger(BucketSearch.class);

    private BucketSearch() {}

    /** Also how many of its rows no current archive covers. */
    static final class Found {
        final List<InternalRow> rows;
        final long unsearchableRows;
        final long rowsIndexedAtQueryTime;

        Found(List<InternalRow> rows, long unsearchableRows, long rowsIndexedAtQueryTime) {
            this.rows = rows;
            this.unsearchableRows = unsearchableRows;
            this.rowsIndexedAtQueryTime = rowsIndexedAtQueryTime;
        }
    }

    static Found run(
            String tableName,
            FileStoreTable table,
            long snapshotId,
            BinaryRow partition,
            int bucket,
            String query,
            int k,
            List<String> columns,
            boolean score,
            CorpusStats stats,
            boolean fresh) {
        PkFullTextSearcher.PreparedBucket prepared;
        try {
            prepared =
                    PkFullTextSearcher.create(table)
                            .prepare(
                                    table.snapshotManager().snapshot(snapshotId),
                                    partition,
                                    bucket,
                                    fresh);
        } catch (IOException e) {
            throw failed(tableName, bucket, e);
        }
        PkFullTextSearcher.BucketResult result =
                hits(tableName, bucket, fresh, () -> prepared.search(query, k, stats));
        return new Found(
                rows(tableName, table, bucket, result.hits(), columns, score, prepared),
                result.unsearchableRows(),
                result.rowsIndexedAtQueryTime());
    }

    interface Search {
        PkFullTextSearcher.BucketResult run() throws IOException;
    }

    /** Warns of unsearched rows. */
    static PkFullTextSearcher.BucketResult hits(
            String tableName, int bucket, boolean fresh, Search search) {
        try {
            PkFullTextSearcher.BucketResult result = search.run();
            long unsearchable = result.unsearchableRows();
            if (unsearchable > 0) {
                LOG.warn(
                        "full_text_search on {} bucket {}: {} rows were not searched (level 0 or a level without a "
                                + "current archive{}); run CALL <catalog>.sys.compact to index them{}.",
                        tableName,
                        bucket,
                        unsearchable,
                        fresh
                                ? ", and this table's merge engine is not deduplicate with deletion vectors"
                                : "",
                        fresh ? "" : ", or set " + SessionSettings.SEARCH_FRESH.key() + " = true");
            }
            return result;
        } catch (IOException e) {
            throw failed(tableName, bucket, e);
        }
    }

    /** A hit whose row the snapshot deleted is left out. */
    static List<InternalRow> rows(
            String tableName,
            FileStoreTable table,
            int bucket,
            List<SearchHit> hits,
            List<String> columns,
            boolean score,
            PkFullTextSearcher.PreparedBucket prepared) {
        List<InternalRow> rows = new ArrayList<>();
        try {
            PaimonToSpark converter =
                    columns.isEmpty()
                            ? null
                            : PaimonToSpark.forRowType(table.rowType().project(columns));
            List<org.apache.paimon.data.InternalRow> values = prepared.rows(hits, columns);
            for (int i = 0; i < hits.size(); i++) {
                org.apache.paimon.data.InternalRow row = values.get(i);
                if (row != null) {
                    rows.add(
                            output(
                                    columns.size(),
                                    converter == null ? null : converter.convert(row),
                                    score,
                                    hits.get(i).score()));
                }
            }
            return rows;
        } catch (IOException e) {
            throw failed(tableName, bucket, e);
        }
    }

    private static UncheckedIOException failed(String tableName, int bucket, IOException e) {
        return new UncheckedIOException(
                String.format("Cannot search %s bucket %d: %s", tableName, bucket, e.getMessage()),
                e);
    }

    private static InternalRow output(
            int columns, GenericInternalRow values, boolean score, float hitScore) {
        int width = columns + (score ? 1 : 0);
        Object[] out = new Object[width];
        for (int i = 0; i < columns; i++) {
            out[i] = values.get(i, null);
        }
        if (score) {
            out[width - 1] = (double) hitScore;
        }
        return new GenericInternalRow(out);
    }
}
