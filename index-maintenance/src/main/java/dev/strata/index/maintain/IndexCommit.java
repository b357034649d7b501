package dev.strata.index.maintain;

import java.util.Optional;

/**
 * The index part of one bucket's commit: at most one of an append-increment and a compact-increment
 * change, and an abort hook.
 */
public final class IndexCommit {

    /** Rolls back one prepared commit. */
    @FunctionalInterface
    public interface AbortHook {
        void abort() throws java.io.IOException;
    }

    private final IndexChange appendChange;
    private final IndexChange compactChange;
    private final AbortHook abortHook;

    IndexCommit(IndexChange appendChange, IndexChange compactChange, AbortHook abortHook) {
        this.appendChange = appendChange;
        this.compactChange = compactChange;
        this.abortHook = abortHook;
    }

    public Optional<IndexChange> appendChange() {
        return Optional.ofNullable(appendChange);
    }

    public Optional<IndexChange> compactChange() {
        return Optional.ofNullable(compactChange);
    }

    /** Rolls the maintainer back to before this commit and deletes the archives it generated. */
    public void abort() throws java.io.IOException {
        abortHook.abort();
    }
}
