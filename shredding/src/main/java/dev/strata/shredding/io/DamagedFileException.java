package dev.strata.shredding.io;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Optional;

/**
 * A Strata, Parquet or Lucene archive file whose bytes are not what its format promises. The one
 * type for a damaged file, whatever its kind: callers test for it (anywhere in a cause chain, see
 * {@link #in}), never for its message. The message reads {@code "Cannot read <file>: <why>. <what
 * to do>"}. Code that cannot throw a checked exception throws it wrapped by {@link #unchecked()}.
 */
public final class DamagedFileException extends IOException {

    private static final long serialVersionUID = 1L;

    /** What to do about a damaged file of a table. */
    public static final String RESTORE =
            "The file is damaged; restore it or rewrite the table from a good copy.";

    /** What to do about a file that may not be Strata's at all. */
    public static final String NOT_WRITTEN_BY_STRATA =
            "The file is damaged or was not written by Strata; restore it or rewrite the table from"
                    + " a good copy.";

    private final String file;
    private final String expected;
    private final String found;

    /** {@code file} is damaged because of {@code why}; the advice is {@link #RESTORE}. */
    public DamagedFileException(String file, String why, Throwable cause) {
        this(file, why, null, null, RESTORE, cause);
    }

    /** {@code what} of {@code file} is {@code found} where its format promises {@code expected}. */
    public DamagedFileException(String file, String what, Object expected, Object found) {
        this(file, what, String.valueOf(expected), String.valueOf(found), RESTORE, null);
    }

    /** The general form; {@code expected} and {@code found} may be null. */
    public DamagedFileException(
            String file,
            String what,
            String expected,
            String found,
            String whatToDo,
            Throwable cause) {
        super(
                "Cannot read "
                        + file
                        + ": "
                        + what
                        + (expected == null && found == null
                                ? ""
                                : ": expected " + expected + ", found " + found)
                        + ". "
                        + whatToDo,
                cause);
        this.file = file;
        this.expected = expected;
        this.found = found;
    }

    /**
     * The same damage reported with another cause (e.g. the failure that led to finding it); where
     * it was found stays attached as a suppressed exception.
     */
    public DamagedFileException(DamagedFileException damage, Throwable cause) {
        super(damage.getMessage(), cause);
        this.file = damage.file;
        this.expected = damage.expected;
        this.found = damage.found;
        for (Throwable t = cause; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t == damage) {
                return;
            }
        }
        addSuppressed(damage);
    }

    public String file() {
        return file;
    }

    /** What the format promises at the damaged place, when it is one value. */
    public Optional<String> expected() {
        return Optional.ofNullable(expected);
    }

    /** What the file holds there instead, when it is one value. */
    public Optional<String> found() {
        return Optional.ofNullable(found);
    }

    /** This exception for code that may throw unchecked exceptions only. */
    public UncheckedIOException unchecked() {
        return new UncheckedIOException(getMessage(), this);
    }

    /** The first damaged file reported in {@code failure}'s cause chain. */
    public static Optional<DamagedFileException> in(Throwable failure) {
        int depth = 0;
        for (Throwable t = failure; t != null && depth < 64; t = t.getCause(), depth++) {
            if (t instanceof DamagedFileException) {
                return Optional.of((DamagedFileException) t);
            }
        }
        return Optional.empty();
    }
}
