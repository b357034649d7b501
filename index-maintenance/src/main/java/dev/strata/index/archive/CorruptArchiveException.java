package dev.strata.index.archive;

import java.io.IOException;

/**
 * An archive file that is not what its format promises; the message names the file, expected and
 * actual.
 */
public final class CorruptArchiveException extends IOException {

    private static final long serialVersionUID = 1L;

    private final String file;

    public CorruptArchiveException(String file, String what, Object expected, Object actual) {
        super(
                "Corrupt full-text archive: "
                        + what
                        + ": expected="
                        + expected
                        + " actual="
                        + actual
                        + " (resource="
                        + file
                        + ")");
        this.file = file;
    }

    public CorruptArchiveException(String file, String what, Throwable cause) {
        super("Corrupt full-text archive: " + what + " (resource=" + file + ")", cause);
        this.file = file;
    }

    /** The archive file, as a path string. */
    public String file() {
        return file;
    }
}
