package dev.strata.shredding.read;

import dev.strata.shredding.io.DamagedFileException;
import java.io.IOException;
import java.util.Arrays;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.page.DataPage;
import org.apache.parquet.column.page.PageReader;

/** The pages of one column chunk of one row group, one at a time; subclasses decode rows. */
abstract class PageStream {

    final PageReader pages;
    final ColumnDescriptor column;
    final String file;

    /** Level entries of the current page not read yet. */
    int pageLeft;

    boolean exhausted;

    /** The row group row of the next row to read. */
    long row;

    /**
     * Whether the current page carries its first row index and row count, and the row after its
     * last. Such pages start at row boundaries, so a window ending at the page's end reads nothing
     * ahead, and {@link #seek} may jump to a later page.
     */
    boolean pageIndexed;

    long pageEnd;

    PageStream(PageReader pages, ColumnDescriptor column, String file) {
        this.pages = pages;
        this.column = column;
        this.file = file;
    }

    abstract void next(int n) throws IOException;

    /** Sets up the decoders of the levels and values of {@code page}, the new current page. */
    abstract void decode(DataPage page) throws IOException;

    /** Whether a level entry was read ahead of the rows read so far (it starts the next row). */
    boolean entryAhead() {
        return false;
    }

    final void open(DataPage page) throws IOException {
        pageIndexed = page.getFirstRowIndex().isPresent() && page.getIndexRowCount().isPresent();
        pageEnd =
                pageIndexed
                        ? page.getFirstRowIndex().get() + page.getIndexRowCount().get()
                        : Long.MAX_VALUE;
        decode(page);
        pageLeft = page.getValueCount();
    }

    /** Makes the current page one with entries left; false at the end of the chunk. */
    final boolean nextPage() throws IOException {
        while (pageLeft == 0) {
            if (exhausted) {
                return false;
            }
            DataPage page = pages.readPage();
            if (page == null) {
                exhausted = true;
                return false;
            }
            open(page);
        }
        return true;
    }

    /** Whether the chunk holds no entries after the rows read so far. */
    final boolean atEnd() throws IOException {
        return !entryAhead() && !nextPage();
    }

    /** Moves to group row {@code target}, passing pages unread where the page index allows. */
    void seek(long target) throws IOException {
        if (target < row) {
            throw corrupt("row " + target + " was asked for after row " + row);
        }
        while (row < target) {
            if (!entryAhead() && pageLeft == 0) {
                DataPage page = exhausted ? null : pages.readPage();
                if (page == null) {
                    exhausted = true;
                    throw corrupt("the chunk ends before row " + target);
                }
                if (page.getFirstRowIndex().isEmpty() || page.getIndexRowCount().isEmpty()) {
                    throw corrupt(
                            "rows "
                                    + row
                                    + " to "
                                    + target
                                    + " were to be skipped but a page has no row index");
                }
                long first = page.getFirstRowIndex().get();
                if (first + page.getIndexRowCount().get() <= target) {
                    continue;
                }
                open(page);
                row = Math.max(row, first);
                continue;
            }
            next(Math.toIntExact(Math.min(target, pageIndexed ? pageEnd : target) - row));
        }
    }

    final DamagedFileException corrupt(String what) {
        return new DamagedFileException(
                file, "column " + Arrays.toString(column.getPath()) + ": " + what, null);
    }
}
