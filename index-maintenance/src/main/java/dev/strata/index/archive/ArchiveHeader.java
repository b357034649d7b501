package dev.strata.index.archive;

import dev.strata.index.options.AnalyzerSettings;
import dev.strata.index.source.SourceMeta;
import java.util.Objects;

/** What an archive says about itself: text field, sources, analyzer, row and document counts. */
public final class ArchiveHeader {

    private final int textFieldId;
    private final SourceMeta sourceMeta;
    private final AnalyzerSettings analyzer;
    private final long rowCount;
    private final long docCount;

    public ArchiveHeader(
            int textFieldId,
            SourceMeta sourceMeta,
            AnalyzerSettings analyzer,
            long rowCount,
            long docCount) {
        this.textFieldId = textFieldId;
        this.sourceMeta = Objects.requireNonNull(sourceMeta);
        this.analyzer = Objects.requireNonNull(analyzer);
        this.rowCount = rowCount;
        this.docCount = docCount;
    }

    public int textFieldId() {
        return textFieldId;
    }

    public SourceMeta sourceMeta() {
        return sourceMeta;
    }

    public AnalyzerSettings analyzer() {
        return analyzer;
    }

    /** Archive row ids: the sum of the source row counts, null texts included. */
    public long rowCount() {
        return rowCount;
    }

    /** Lucene documents: rows with a non-null text. */
    public long docCount() {
        return docCount;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof ArchiveHeader)) {
            return false;
        }
        ArchiveHeader h = (ArchiveHeader) o;
        return textFieldId == h.textFieldId
                && rowCount == h.rowCount
                && docCount == h.docCount
                && sourceMeta.equals(h.sourceMeta)
                && analyzer.equals(h.analyzer);
    }

    @Override
    public int hashCode() {
        return Objects.hash(textFieldId, sourceMeta, analyzer, rowCount, docCount);
    }

    @Override
    public String toString() {
        return "ArchiveHeader{field="
                + textFieldId
                + ", "
                + sourceMeta
                + ", analyzer="
                + analyzer
                + ", rows="
                + rowCount
                + ", docs="
                + docCount
                + "}";
    }
}
