package dev.strata.shredding.format;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/** A fresh Paimon warehouse ({@link PaimonTables}) in a temporary directory for each test. */
abstract class PaimonTablesTestBase {

    @TempDir java.nio.file.Path tmp;

    PaimonTables tables;

    @BeforeEach
    void openTables() throws Exception {
        tables = new PaimonTables(tmp);
    }

    @AfterEach
    void closeTables() throws Exception {
        tables.close();
    }
}
