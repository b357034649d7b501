package dev.strata.shredding.parquet;

import java.io.IOException;

/**
 * A data or metadata file whose bytes are not what its format promises. The message names the file,
 * what was expected and what was found, and says what to do.
 */
public final class DamagedFileException extends IOException {

    private static final long serialVersionUID = 1L;

    private final String file;

    public DamagedFileException(String file, String message, Throwable cause) {
        super(message, cause);
        this.file = file;
    }

    /** The damaged file, as a path string. */
    public String file() {
        return file;
    }
}
