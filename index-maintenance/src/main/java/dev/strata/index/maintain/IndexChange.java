package dev.strata.index.maintain;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.paimon.index.IndexFileMeta;

/** Archives to add to and remove from the index manifest of one bucket, in one increment. */
public final class IndexChange {

    private final List<IndexFileMeta> created;
    private final List<IndexFileMeta> removed;

    IndexChange(List<IndexFileMeta> created, List<IndexFileMeta> removed) {
        this.created = Collections.unmodifiableList(new ArrayList<>(created));
        this.removed = Collections.unmodifiableList(new ArrayList<>(removed));
    }

    public List<IndexFileMeta> created() {
        return created;
    }

    public List<IndexFileMeta> removed() {
        return removed;
    }

    @Override
    public String toString() {
        return "IndexChange{created=" + created + ", removed=" + removed + "}";
    }
}
